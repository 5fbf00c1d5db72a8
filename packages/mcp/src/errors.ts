import { CLI_ERRORS } from '@strand/session/errors';

/** The MCP server's own codes (failures of other packages keep their codes). */
export const STRAND_MCP_ERROR_CODES = [
  'CLI_MCP_ARGUMENTS_INVALID',
  'CLI_MCP_DATA_FOLDER_MISSING',
] as const satisfies readonly (typeof CLI_ERRORS.codes)[number][];
export type StrandMcpErrorCode = (typeof STRAND_MCP_ERROR_CODES)[number];

export class StrandMcpError extends CLI_ERRORS.errorClass<StrandMcpErrorCode>('StrandMcpError') {}
