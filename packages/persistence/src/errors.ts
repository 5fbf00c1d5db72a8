/** Stable codes of the persistence package; callers switch on `code`. */
export type PersistenceErrorCode = (typeof PERSISTENCE_ERROR_CODES)[number];

export const PERSISTENCE_ERROR_CODES = [
  /** No stored session has this id. */
  'PERSISTENCE_NOT_FOUND',
  /** `create` of an id that is already stored. */
  'PERSISTENCE_EXISTS',
  /** An append's first seq is not the next stored seq ("expected N, got M"): another writer won. */
  'PERSISTENCE_SEQ_CONFLICT',
  /** Damage before later valid data, a bad header, or a seq gap; `details` names session and location. */
  'PERSISTENCE_CORRUPT',
  /** Data written by a newer format version, or a database that is not Strand's. */
  'PERSISTENCE_FORMAT_UNSUPPORTED',
  /** The caller's signal aborted the read. */
  'PERSISTENCE_ABORTED',
  /** The underlying storage failed (I/O error, disk full…); the stored log is as before the batch. */
  'PERSISTENCE_IO',
  /** The session id cannot be stored (its escaped file name would be too long). */
  'PERSISTENCE_ID_UNSTORABLE',
  /** No attachment with that ref is stored for the session. */
  'PERSISTENCE_ATTACHMENT_NOT_FOUND',
  /** A prepared session is reserved for publication and cannot be reserved again. */
  'PERSISTENCE_RESERVED',
  /** The store was closed. */
  'PERSISTENCE_CLOSED',
] as const;

export interface CorruptionLocation {
  /** Byte offset in the file (JSONL backend) where the damage starts. */
  readonly byteOffset?: number;
  /** 1-based line number (plain JSONL) or 0-based frame number (zstd). */
  readonly line?: number;
  readonly frame?: number;
  readonly seq?: number;
}

export class PersistenceError extends Error {
  override readonly name = 'PersistenceError';
  readonly code: PersistenceErrorCode;
  readonly sessionId: string | undefined;
  readonly location: CorruptionLocation | undefined;

  constructor(
    code: PersistenceErrorCode,
    message: string,
    options: { cause?: unknown; sessionId?: string; location?: CorruptionLocation } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.sessionId = options.sessionId;
    this.location = options.location;
  }

  toJSON(): {
    name: string;
    code: PersistenceErrorCode;
    message: string;
    sessionId?: string;
    location?: CorruptionLocation;
  } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.sessionId === undefined ? {} : { sessionId: this.sessionId }),
      ...(this.location === undefined ? {} : { location: this.location }),
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
      ...(sessionId === undefined ? {} : { sessionId }),
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
