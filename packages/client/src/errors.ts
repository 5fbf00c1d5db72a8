/** The client package's stable codes. Errors the host sends travel as `StrandRpcError` (protocol). */
export type StrandClientErrorCode = (typeof STRAND_CLIENT_ERROR_CODES)[number];

export const STRAND_CLIENT_ERROR_CODES = [
  /** The socket closed while the call was in flight; the host may or may not have executed it. */
  'CLIENT_DISCONNECTED',
  /** The connection was closed by its owner; it makes no further calls. */
  'CLIENT_CLOSED',
  /** A follow snapshot failed validation (header id, contiguous events, cursor, baseline cut). */
  'CLIENT_SNAPSHOT_INVALID',
  /** A `session.page` result did not join the event window it was asked for. */
  'CLIENT_PAGE_INVALID',
  /** Another method's result does not have the shape its protocol schema describes. */
  'CLIENT_RESULT_INVALID',
  /** `follow()` on a follower that already follows a session. */
  'CLIENT_FOLLOW_ACTIVE',
  /** An operation that needs a followed session on an idle follower. */
  'CLIENT_NOT_FOLLOWING',
  /** A projection value does not have the shape its key's client view promises. */
  'CLIENT_PROJECTION_INVALID',
] as const;

export class StrandClientError extends Error {
  override readonly name = 'StrandClientError';
  readonly code: StrandClientErrorCode;

  constructor(code: StrandClientErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }

  toJSON(): { name: string; code: StrandClientErrorCode; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}

export function isStrandClientError(
  error: unknown,
  code?: StrandClientErrorCode,
): error is StrandClientError {
  return error instanceof StrandClientError && (code === undefined || error.code === code);
}
