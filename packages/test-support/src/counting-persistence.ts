import type {
  Attachment,
  CreateSessionInput,
  PersistedSessionSummary,
  ReadOptions,
  ScanOptions,
  SessionPersistence,
  StoredLog,
  StoredSuffix,
} from '@strand/persistence';
import type { SessionEvent, SessionId, SessionSeq } from '@strand/session';

/**
 * A persistence that counts *body reads* — `inspect`, `scan`, `load` and `readFrom`, the calls that read
 * a log's events — and passes everything through. Header-only `list` and `revisionOf` are not
 * body reads. Used by tests and the benchmark that claim zero or one read.
 */
export class CountingPersistence implements SessionPersistence {
  readonly inner: SessionPersistence;
  readonly #reads = new Map<string, number>();
  bodyReads = 0;

  constructor(inner: SessionPersistence) {
    this.inner = inner;
  }

  get kind(): string {
    return this.inner.kind;
  }

  unstorableIdReason(id: SessionId): string | undefined {
    return this.inner.unstorableIdReason?.(id);
  }

  /** Body reads of one session since the last reset. */
  readsOf(id: string): number {
    return this.#reads.get(id) ?? 0;
  }

  resetCounts(): void {
    this.bodyReads = 0;
    this.#reads.clear();
  }

  #count(id: SessionId): void {
    this.bodyReads++;
    this.#reads.set(id, (this.#reads.get(id) ?? 0) + 1);
  }

  create(input: CreateSessionInput): Promise<{ readonly incarnation: string }> {
    return this.inner.create(input);
  }
  append(id: SessionId, events: readonly SessionEvent[]): Promise<{ readonly revision: string }> {
    return this.inner.append(id, events);
  }
  list(options?: ReadOptions): Promise<PersistedSessionSummary[]> {
    return this.inner.list(options);
  }
  revisionOf(id: SessionId, options?: ReadOptions): Promise<string | undefined> {
    return this.inner.revisionOf(id, options);
  }
  inspect(id: SessionId, options?: ReadOptions): Promise<StoredLog> {
    this.#count(id);
    return this.inner.inspect(id, options);
  }
  scan(id: SessionId, options: ScanOptions): Promise<StoredLog> {
    this.#count(id);
    return this.inner.scan(id, options);
  }
  load(id: SessionId, options?: ReadOptions): Promise<StoredLog> {
    this.#count(id);
    return this.inner.load(id, options);
  }
  readFrom(id: SessionId, from: SessionSeq, options?: ReadOptions): Promise<StoredSuffix> {
    this.#count(id);
    return this.inner.readFrom(id, from, options);
  }
  putAttachment(id: SessionId, attachment: Attachment): Promise<string> {
    return this.inner.putAttachment(id, attachment);
  }
  readAttachment(id: SessionId, ref: string, options?: ReadOptions): Promise<Attachment> {
    return this.inner.readAttachment(id, ref, options);
  }
  delete(id: SessionId): Promise<void> {
    return this.inner.delete(id);
  }
  flush(): Promise<void> {
    return this.inner.flush();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
