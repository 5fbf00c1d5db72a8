import { STRAND_ACP_ERROR_CODES } from './acp/errors.js';
import { DATA_LOCK_ERROR_CODES } from './data-lock/errors.js';
import { STRAND_MCP_ERROR_CODES } from './mcp/errors.js';
import { REMOTE_HOST_ERROR_CODES } from './remote-error.js';

export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];

/** Every stable code the CLI throws itself, across its error classes. */
export const CLI_ERROR_CODES = [
  ...STRAND_MCP_ERROR_CODES,
  ...DATA_LOCK_ERROR_CODES,
  ...REMOTE_HOST_ERROR_CODES,
  ...STRAND_ACP_ERROR_CODES,
] as const;
