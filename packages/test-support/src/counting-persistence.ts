import type {
  ListChunksOptions,
  PersistedSessionSummary,
  ReadOptions,
  ScanOptions,
  StoredLog,
  StoredSuffix,
} from '@strand/persistence';
import type { SessionId, SessionSeq } from '@strand/session';
import { DelegatingPersistence } from './delegating-persistence.js';

/**
 * The one counting persistence of the tests: it counts *body reads* — `inspect`, `scan`, `load`
 * and `readFrom`, the calls that read a log's events — per session, records each `readFrom`
 * (id, from) with the events it returned, counts the header-only `list` calls and `listChunks`
 * walks apart, and passes
 * everything through. `revisionOf` is not counted. Used by tests and the benchmarks that claim
 * zero or one read, and by the search suites that claim suffix-only reads.
 */
export class CountingPersistence extends DelegatingPersistence {
  readonly #reads = new Map<string, number>();
  bodyReads = 0;
  /** Every `readFrom` since the last reset, in call order. */
  readFromCalls: { id: string; from: number }[] = [];
  /** Events the `readFrom` calls returned since the last reset. */
  eventsRead = 0;
  /** `list` calls since the last reset. */
  lists = 0;
  /** `listChunks` walks begun since the last reset. */
  walks = 0;

  /** Body reads of one session since the last reset. */
  readsOf(id: string): number {
    return this.#reads.get(id) ?? 0;
  }

  resetCounts(): void {
    this.bodyReads = 0;
    this.#reads.clear();
    this.readFromCalls = [];
    this.eventsRead = 0;
    this.lists = 0;
    this.walks = 0;
  }

  #count(id: SessionId): void {
    this.bodyReads++;
    this.#reads.set(id, (this.#reads.get(id) ?? 0) + 1);
  }

  override listChunks(options: ListChunksOptions): AsyncIterable<readonly PersistedSessionSummary[]> {
    this.walks++;
    return this.inner.listChunks(options);
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
  override async readFrom(id: SessionId, from: SessionSeq, options?: ReadOptions): Promise<StoredSuffix> {
    this.#count(id);
    const suffix = await this.inner.readFrom(id, from, options);
    this.readFromCalls.push({ id, from });
    this.eventsRead += suffix.events.length;
    return suffix;
  }
  override list(options?: ReadOptions): Promise<PersistedSessionSummary[]> {
    this.lists++;
    return this.inner.list(options);
  }
}
