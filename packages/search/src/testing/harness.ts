import { afterEach } from 'vitest';
import type { Session } from '@strand/session';
import type { SearchIndex, SearchIndexTuning } from '../search-index.js';

/** One index handed to a suite test; the suite disposes it when the test ends. */
export interface SearchIndexUnderTest {
  readonly index: SearchIndex;
  /** Closes the current handle and opens the same index storage again (a process restart). */
  reopen(): Promise<SearchIndex>;
  /** Closes whichever handle is current and removes the storage. */
  dispose(): Promise<void>;
}

/**
 * Opens an index over fresh, empty storage (its own file, its own database): two calls are two
 * different indexes, so a cursor of one is "another index's" for the other.
 */
export type OpenSearchIndex = (options?: SearchIndexTuning) => Promise<SearchIndexUnderTest>;

/** An `open` whose indexes are disposed after each test of the enclosing `describe`. */
export function disposedAfterEach(open: OpenSearchIndex): OpenSearchIndex {
  const opened: SearchIndexUnderTest[] = [];
  afterEach(async () => {
    for (const target of opened.splice(0).reverse()) await target.dispose();
  });
  return async (options) => {
    const target = await open(options);
    opened.push(target);
    return target;
  };
}

/**
 * Feeds a live session's appends to `index.indexLive` as a host does, keeping what each call
 * returns (a report, or a promise of one) so the test can wait until everything is committed.
 */
export function feedLive(index: SearchIndex, session: Session): { stop(): Promise<void> } {
  const pending: Promise<unknown>[] = [];
  const unsubscribe = session.subscribe((events, live) => {
    pending.push(Promise.resolve(index.indexLive(live, events)));
  });
  return {
    async stop() {
      unsubscribe();
      await Promise.all(pending);
    },
  };
}
