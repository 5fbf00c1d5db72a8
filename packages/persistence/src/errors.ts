import { defined } from '@strand/session';
import { PERSISTENCE_ERRORS, type StrandErrorOptions } from '@strand/session/errors';

/** The persistence package's codes, shared by every backend; callers switch on `code`. */
export const PERSISTENCE_ERROR_CODES = PERSISTENCE_ERRORS.codes;
export type PersistenceErrorCode = (typeof PERSISTENCE_ERROR_CODES)[number];

export interface CorruptionLocation {
  /** Byte offset in the file (JSONL backend) where the damage starts. */
  readonly byteOffset?: number;
  /** 1-based line number (plain JSONL) or 0-based frame number (zstd). */
  readonly line?: number;
  readonly frame?: number;
  readonly seq?: number;
}

export class PersistenceError extends PERSISTENCE_ERRORS.errorClass('PersistenceError') {
  readonly sessionId: string | undefined;
  readonly location: CorruptionLocation | undefined;

  constructor(
    code: PersistenceErrorCode,
    message: string,
    options: StrandErrorOptions & { sessionId?: string; location?: CorruptionLocation } = {},
  ) {
    super(code, message, options);
    this.sessionId = options.sessionId;
    this.location = options.location;
  }

  protected override jsonFields(): { sessionId?: string; location?: CorruptionLocation } {
    return {
      ...defined({ sessionId: this.sessionId, location: this.location }),
    };
  }
}

export function isPersistenceError(error: unknown, code?: PersistenceErrorCode): error is PersistenceError {
  return error instanceof PersistenceError && (code === undefined || error.code === code);
}

/** Throws the package's abort error if `signal` has aborted. Call at every documented checkpoint. */
export function throwIfAborted(signal: AbortSignal | undefined, sessionId?: string): void {
  if (signal?.aborted === true) {
    throw new PersistenceError('PERSISTENCE_ABORTED', `read of ${sessionId ?? 'the store'} was aborted`, {
      cause: signal.reason,
      ...defined({ sessionId }),
    });
  }
}

// Constructors every backend uses for the same situations, so messages and details agree.

export function sessionNotFound(id: string): PersistenceError {
  return new PersistenceError('PERSISTENCE_NOT_FOUND', `no stored session ${id}`, { sessionId: id });
}

export function sessionExists(id: string): PersistenceError {
  return new PersistenceError('PERSISTENCE_EXISTS', `session ${id} already exists`, { sessionId: id });
}

export function attachmentNotFound(id: string, ref: string): PersistenceError {
  return new PersistenceError('PERSISTENCE_ATTACHMENT_NOT_FOUND', `session ${id} has no attachment ${ref}`, {
    sessionId: id,
  });
}

/** "expected N, got M": the batch does not continue the stored log (another writer won, or a gap). */
export function seqConflict(
  id: string,
  expected: number,
  got: number | undefined,
  where = '',
): PersistenceError {
  return new PersistenceError(
    'PERSISTENCE_SEQ_CONFLICT',
    `append to session ${id}${where}: expected ${expected}, got ${String(got)}`,
    { sessionId: id, location: { seq: expected } },
  );
}
