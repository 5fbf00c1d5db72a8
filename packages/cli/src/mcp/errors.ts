/** The MCP server's own stable codes (failures of other packages keep their codes). */
export type StrandMcpErrorCode = (typeof STRAND_MCP_ERROR_CODES)[number];

export const STRAND_MCP_ERROR_CODES = [
  /** Tool arguments the schema accepts but that do not fit together (a seq range backwards). */
  'CLI_MCP_ARGUMENTS_INVALID',
  /** `--data` names no folder: refused at start, so a typo never serves an empty corpus. */
  'CLI_MCP_DATA_FOLDER_MISSING',
] as const;

export class StrandMcpError extends Error {
  override readonly name = 'StrandMcpError';
  constructor(
    readonly code: StrandMcpErrorCode,
    message: string,
  ) {
    super(message);
  }

  toJSON(): { name: string; code: StrandMcpErrorCode; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}
