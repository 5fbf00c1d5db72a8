import type { ReadOptions, ScanOptions, StoredLog, StoredSuffix } from '@strand/persistence';
import type { SessionId, SessionSeq } from '@strand/session';
import { DelegatingPersistence } from './delegating-persistence.js';

/**
 * A persistence that counts *body reads* — `inspect`, `scan`, `load` and `readFrom`, the calls that read
 * a log's events — and passes everything through. Header-only `list` and `revisionOf` are not
 * body reads. Used by tests and the benchmark that claim zero or one read.
 */
export class CountingPersistence extends DelegatingPersistence {
  readonly #reads = new Map<string, number>();
  bodyReads = 0;

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

  override inspect(id: SessionId, options?: ReadOptions): Promise<StoredLog> {
    this.#count(id);
    return this.inner.inspect(id, options);
  }
  override scan(id: SessionId, options: ScanOptions): Promise<StoredLog> {
    this.#count(id);
    return this.inner.scan(id, options);
  }
  override load(id: SessionId, options?: ReadOptions): Promise<StoredLog> {
    this.#count(id);
    return this.inner.load(id, options);
  }
  override readFrom(id: SessionId, from: SessionSeq, options?: ReadOptions): Promise<StoredSuffix> {
    this.#count(id);
    return this.inner.readFrom(id, from, options);
  }
}
