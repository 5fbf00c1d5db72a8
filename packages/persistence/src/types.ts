import type { SessionEvent, SessionHeader, SessionId, SessionLogOffset, SessionSeq } from '@strand/session';

export interface ReadOptions {
  readonly signal?: AbortSignal;
}

/** One row of `list`: logical header facts only — no body read, no integer inherited cut. */
export interface PersistedSessionSummary {
  readonly header: SessionHeader;
  /** Opaque; assigned at creation. A session deleted and created again is a new incarnation. */
  readonly incarnation: string;
  /** Opaque; changes whenever the stored log changes, and never otherwise. */
  readonly revision: string;
  /** Bytes the session occupies in storage (compressed size for zstd). */
  readonly storedBytes: number;
}

/** An exact read of a stored log. */
export interface StoredLog extends PersistedSessionSummary {
  /** Length of the inherited (seeded) prefix: stored beside the header, never in it. */
  readonly inheritedEventCount: SessionLogOffset;
  /** The stored events, contiguous from seq 0, deep-frozen. */
  readonly events: readonly SessionEvent[];
  /**
   * Closers for a turn the stored log leaves open (crash repair): from `inspect`, computed in
   * memory and not written; from `load`, empty (they were written and are part of `events`).
   */
  readonly repairs: readonly SessionEvent[];
  /** True if a torn final frame/line was found (and ignored by `inspect`, truncated by `load`). */
  readonly tornTail: boolean;
}

export interface ListChunksOptions extends ReadOptions {
  /** Summaries per chunk, at most (a positive integer). */
  readonly chunk: number;
}

export interface ScanOptions extends ReadOptions {
  /**
   * The event types whose `data` the caller reads (e.g. the union of the registered projection
   * units' declared data reads). Every other event may come back with `data: null`.
   */
  readonly dataTypes: ReadonlySet<string>;
}

/** A suffix read: the events with `seq >= from`. */
export interface StoredSuffix {
  readonly header: SessionHeader;
  readonly inheritedEventCount: SessionLogOffset;
  readonly incarnation: string;
  readonly revision: string;
  readonly from: SessionSeq;
  readonly events: readonly SessionEvent[];
  /** The stored log length (the cut after the last stored event). */
  readonly cursor: SessionLogOffset;
}

export interface CreateSessionInput {
  readonly header: SessionHeader;
  /** The seeded prefix copied from the parent (its length is the inherited cut). */
  readonly inheritedEvents?: readonly SessionEvent[];
  /**
   * Store the session now, even with no events: it exists durably (listed, readable, surviving a
   * restart) once `create` resolves. Without it an unseeded session reaches storage with its first
   * append, which then costs no extra sync.
   */
  readonly materialize?: boolean;
}

export interface Attachment {
  readonly bytes: Uint8Array;
  readonly mediaType: string;
}

/**
 * The durable store of session logs. Every implementation passes the shared contract suite in
 * `@strand/test-support` (`persistenceContract`).
 *
 * Creation is lazy: `create` validates and assigns the incarnation; the session reaches storage
 * with its first durable write (a seeded prefix, or `materialize`, is written at once). An append resolves only when
 * durable, and its first seq must be the next stored seq, so two writers can never interleave.
 */
export interface SessionPersistence {
  readonly kind: string;
  /**
   * Why this backend could never store a session with `id` (valid as a `SessionId`), or
   * undefined when it can. Absent: every valid id is storable. Edges (the host's params) call
   * it to refuse such an id as invalid instead of failing in storage.
   */
  unstorableIdReason?(id: SessionId): string | undefined;
  create(input: CreateSessionInput): Promise<{ readonly incarnation: string }>;
  append(id: SessionId, events: readonly SessionEvent[]): Promise<{ readonly revision: string }>;
  list(options?: ReadOptions): Promise<PersistedSessionSummary[]>;
  /**
   * The same summaries as `list`, in id order (`compareSessionIds`: code point order, as SQLite's
   * BINARY and PostgreSQL's `COLLATE "C"`), in chunks of at most `chunk`: a walk over a large
   * corpus that holds one chunk of summaries at a time, not all of them. A session created or
   * deleted during the walk may or may not appear.
   */
  listChunks(options: ListChunksOptions): AsyncIterable<readonly PersistedSessionSummary[]>;
  /**
   * A token that changes whenever the set of stored sessions or an incarnation changes — a
   * session reaching storage, a delete, a delete and re-create — whoever wrote it (another
   * process, another tool on the same storage), and never on an append alone; cheap (no walk).
   * A change committed before the read is in the token, and so is visible to any read started
   * after it. Opaque; compare for equality only. Absent or undefined: this backend cannot tell
   * (every caller must then assume a change).
   */
  changeMarker?(): Promise<string | undefined>;
  /** The current revision, or undefined when not stored; cheap (no body read). */
  revisionOf(id: SessionId, options?: ReadOptions): Promise<string | undefined>;
  /** Exact, non-mutating read: a torn tail is ignored, open-turn closers come back in `repairs`. */
  inspect(id: SessionId, options?: ReadOptions): Promise<StoredLog>;
  /** Repairing read: truncates a torn tail and writes the closers of an open turn, then reads. */
  load(id: SessionId, options?: ReadOptions): Promise<StoredLog>;
  /**
   * A non-mutating whole-log read for folds that need every envelope but only some events' data:
   * events of a type outside `dataTypes` may carry `data: null` instead of their stored data,
   * which is then neither parsed nor validated (envelope, seq contiguity and frame checksums
   * still are). `repairs` are exact, as `inspect`'s. Never hand its events to anyone who shows
   * or writes them; a backend may also return full data (`inspect` is a valid scan).
   */
  scan(id: SessionId, options: ScanOptions): Promise<StoredLog>;
  /** The events with `seq >= from` (non-mutating), without decoding the whole log where possible. */
  readFrom(id: SessionId, from: SessionSeq, options?: ReadOptions): Promise<StoredSuffix>;
  putAttachment(id: SessionId, attachment: Attachment): Promise<string>;
  readAttachment(id: SessionId, ref: string, options?: ReadOptions): Promise<Attachment>;
  delete(id: SessionId): Promise<void>;
  /** Resolves once every append issued before it is durable. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
