/**
 * The session package's one error class. Codes are stable strings; callers switch on `code`,
 * never on `message`.
 */
export type SessionErrorCode = (typeof SESSION_ERROR_CODES)[number];

export const SESSION_ERROR_CODES = [
  /** A session id is empty, too long, or contains control characters. */
  'SESSION_ID_INVALID',
  /** Event data is not lossless JSON (NaN, -0, undefined, cycles, BigInt, class instances, sparse arrays…). */
  'SESSION_DATA_NOT_JSON',
  /** A core event type's data does not match its schema. */
  'SESSION_EVENT_INVALID',
  /** A header does not match the header schema. */
  'SESSION_HEADER_INVALID',
  /** Events are not contiguous: expected seq N, got M. */
  'SESSION_SEQ_MISMATCH',
  /** A fork was requested at a cut that is not a closed-turn boundary, or beyond the log. */
  'SESSION_FORK_CUT_INVALID',
  /** The durable write behind an append failed; the live session refuses further appends. */
  'SESSION_WRITE_FAILED',
  /** A session with this id is already attached to the store. */
  'SESSION_ALREADY_ATTACHED',
  /** A command would append to a session another harness owns (its header has a `source`). */
  'SESSION_READ_ONLY',
] as const;

export class SessionError extends Error {
  override readonly name = 'SessionError';
  readonly code: SessionErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: SessionErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options?.details ?? {};
  }

  toJSON(): {
    name: string;
    code: SessionErrorCode;
    message: string;
    details: Readonly<Record<string, unknown>>;
  } {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}
