import { RequestError } from '@agentclientprotocol/sdk';

/** `strand acp`'s own stable codes (failures of other packages keep theirs, in `data.code`). */
export type StrandAcpErrorCode = (typeof STRAND_ACP_ERROR_CODES)[number];

export const STRAND_ACP_ERROR_CODES = [
  /** `session/prompt`, `session/set_mode`… on a session this connection never created or loaded. */
  'CLI_ACP_SESSION_NOT_OPEN',
  /** A second `session/prompt` while one is running on the same session. */
  'CLI_ACP_PROMPT_RUNNING',
  /** The prompt holds nothing Strand can send as text (only images or audio). */
  'CLI_ACP_PROMPT_EMPTY',
  /** `session/set_config_option` with an option or value the host's catalog does not offer. */
  'CLI_ACP_CONFIG_INVALID',
  /** The turn ended with `error` (or `interrupted`): not a stop reason ACP names. */
  'CLI_ACP_TURN_FAILED',
  /** The connection to the host was lost while a prompt's turn ran: its outcome is unknown. */
  'CLI_ACP_HOST_LOST',
  /** A failure that carried no stable code of its own (reported in `data.code`). */
  'CLI_ACP_FAILED',
] as const;

export class StrandAcpError extends Error {
  override readonly name = 'StrandAcpError';
  constructor(
    readonly code: StrandAcpErrorCode,
    message: string,
  ) {
    super(message);
  }

  toJSON(): { name: string; code: StrandAcpErrorCode; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}

/**
 * Any failure → the JSON-RPC error the editor gets. The stable string code always travels in
 * `data.code` (Strand's codes, the host's `SESSION_QUERY_NOT_FOUND`, a read-only refusal…);
 * the integer is ACP's where ACP names the case — `-32002` resource not found, `-32602` invalid
 * params — and `-32603` otherwise. Strand's own integers are not passed on: they would collide
 * with ACP's meanings (`-32000` is ACP's auth required, `-32002` Strand's too-many-requests).
 */
export function toAcpError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  const data = { code: code ?? ('CLI_ACP_FAILED' satisfies StrandAcpErrorCode), message };
  if (code === undefined) return new RequestError(-32603, message, data);
  if (code.endsWith('_NOT_FOUND') || code === 'CLI_ACP_SESSION_NOT_OPEN')
    return new RequestError(-32002, message, data);
  if (code === 'RPC_INVALID_PARAMS' || code === 'CLI_ACP_CONFIG_INVALID' || code === 'CLI_ACP_PROMPT_EMPTY')
    return new RequestError(-32602, message, data);
  return new RequestError(-32603, message, data);
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
