import { DATA_LOCK_ERROR_CODES, type DataLockErrorCode } from './data-lock/errors.js';
import { STRAND_MCP_ERROR_CODES, type StrandMcpErrorCode } from './mcp/errors.js';
import { REMOTE_HOST_ERROR_CODES, type RemoteHostErrorCode } from './remote-error.js';

/** Every stable code the CLI throws itself, across its three error classes. */
export type CliErrorCode = StrandMcpErrorCode | DataLockErrorCode | RemoteHostErrorCode;

export const CLI_ERROR_CODES: readonly CliErrorCode[] = Object.freeze([
  ...STRAND_MCP_ERROR_CODES,
  ...DATA_LOCK_ERROR_CODES,
  ...REMOTE_HOST_ERROR_CODES,
]);
