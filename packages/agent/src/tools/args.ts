import { AgentError } from '../errors.js';

/** The model's arguments as an object with exactly the allowed keys, or `AGENT_TOOL_ARGUMENTS_INVALID`. */
export function argsObject(
  tool: string,
  raw: unknown,
  allowed: readonly string[],
): Readonly<Record<string, unknown>> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalid(tool, 'the arguments must be a JSON object');
  for (const key of Object.keys(raw))
    if (!allowed.includes(key)) throw invalid(tool, `unexpected argument ${JSON.stringify(key)}`);
  return raw as Record<string, unknown>;
}

export function requiredString(tool: string, args: Readonly<Record<string, unknown>>, key: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value.trim().length === 0)
    throw invalid(tool, `${key} must be a non-empty string`);
  return value;
}

export function optionalString(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  key: string,
): string | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length === 0)
    throw invalid(tool, `${key} must be a non-empty string when given`);
  return value;
}

export function optionalBoolean(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  key: string,
): boolean | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalid(tool, `${key} must be true or false`);
  return value;
}

function invalid(tool: string, why: string): AgentError {
  return new AgentError('AGENT_TOOL_ARGUMENTS_INVALID', `${tool}: ${why}`);
}
