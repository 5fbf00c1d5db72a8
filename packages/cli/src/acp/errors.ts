import { RequestError } from '@agentclientprotocol/sdk';
import { CLI_ERRORS } from '@strand/session/errors';

/** `strand acp`'s own codes (failures of other packages keep theirs, in `data.code`). */
export const STRAND_ACP_ERROR_CODES = [
  'CLI_ACP_SESSION_NOT_OPEN',
  'CLI_ACP_PROMPT_RUNNING',
  'CLI_ACP_PROMPT_EMPTY',
  'CLI_ACP_CONFIG_INVALID',
  'CLI_ACP_TURN_FAILED',
  'CLI_ACP_HOST_LOST',
  'CLI_ACP_FAILED',
] as const satisfies readonly (typeof CLI_ERRORS.codes)[number][];
export type StrandAcpErrorCode = (typeof STRAND_ACP_ERROR_CODES)[number];

export class StrandAcpError extends CLI_ERRORS.errorClass<StrandAcpErrorCode>('StrandAcpError') {}

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
  if (
    code === 'RPC_INVALID_PARAMS' ||
    code === 'HOST_LIST_CURSOR_INVALID' ||
    code === 'CLI_ACP_CONFIG_INVALID' ||
    code === 'CLI_ACP_PROMPT_EMPTY'
  )
    return new RequestError(-32602, message, data);
  return new RequestError(-32603, message, data);
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
