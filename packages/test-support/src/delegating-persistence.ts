import type {
  Attachment,
  CreateSessionInput,
  ListChunksOptions,
  PersistedSessionSummary,
  ReadOptions,
  ScanOptions,
  SessionPersistence,
  StoredLog,
  StoredSuffix,
} from '@strand/persistence';
import type { SessionEvent, SessionId, SessionSeq } from '@strand/session';

/**
 * A persistence that passes every call to `inner`: the base of the test decorators that count
 * reads (`CountingPersistence`) or inject faults (`FaultyPersistence`), which override only what
 * they watch.
 */
export class DelegatingPersistence implements SessionPersistence {
  readonly inner: SessionPersistence;

  constructor(inner: SessionPersistence) {
    this.inner = inner;
  }

  get kind(): string {
    return this.inner.kind;
  }
  unstorableIdReason(id: SessionId): string | undefined {
    return this.inner.unstorableIdReason?.(id);
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
  listChunks(options: ListChunksOptions): AsyncIterable<readonly PersistedSessionSummary[]> {
    return this.inner.listChunks(options);
  }
  changeMarker(): Promise<string | undefined> {
    return this.inner.changeMarker?.() ?? Promise.resolve(undefined);
  }
  revisionOf(id: SessionId, options?: ReadOptions): Promise<string | undefined> {
    return this.inner.revisionOf(id, options);
  }
  inspect(id: SessionId, options?: ReadOptions): Promise<StoredLog> {
    return this.inner.inspect(id, options);
  }
  scan(id: SessionId, options: ScanOptions): Promise<StoredLog> {
    return this.inner.scan(id, options);
  }
  load(id: SessionId, options?: ReadOptions): Promise<StoredLog> {
    return this.inner.load(id, options);
  }
  readFrom(id: SessionId, from: SessionSeq, options?: ReadOptions): Promise<StoredSuffix> {
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
