import type { z } from 'zod';
import { AgentError } from '../errors.js';

/**
 * Parses a model's (untrusted) tool arguments with the tool's one zod schema — the same schema
 * its JSON Schema is derived from — or throws `AGENT_TOOL_ARGUMENTS_INVALID` naming every issue.
 * A `null` for an argument means it is absent: models write that for optional arguments.
 */
export function parseToolArgs<T>(tool: string, schema: z.ZodType<T>, raw: unknown): T {
  const parsed = schema.safeParse(withoutNulls(raw));
  if (parsed.success) return parsed.data;
  const why = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || 'the arguments'}: ${issue.message}`)
    .join('; ');
  throw new AgentError('AGENT_TOOL_ARGUMENTS_INVALID', `${tool}: ${why}`);
}

/** A string with something in it besides white space. */
export function nonBlank<S extends z.ZodString>(schema: S): S {
  return schema.refine((value) => value.trim().length > 0, { message: 'must be a non-empty string' });
}

function withoutNulls(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== null));
}
