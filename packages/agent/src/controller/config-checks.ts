import { AgentError } from '../errors.js';

export function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new AgentError('AGENT_CONFIG_INVALID', `${name} must be a positive integer, got ${value}`);
  return value;
}

export function nonNegativeInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new AgentError('AGENT_CONFIG_INVALID', `${name} must be a non-negative integer, got ${value}`);
  return value;
}
