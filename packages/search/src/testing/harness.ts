import { afterEach, beforeEach } from 'vitest';
import type { Session } from '@strand/session';
import type { SearchIndex, SearchIndexTuning } from '../search-index.js';
import { openTestCorpus, type TestCorpus } from './corpus.js';

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

/** What `withTestIndex` gives each test: read its fields inside a test (or a hook after its own). */
export interface TestIndexFixture {
  /** This test's corpus (a real JSONL persistence in a temp folder and a live store). */
  readonly corpus: TestCorpus;
  /** This test's index, opened with the suite's tuning over fresh storage. */
  readonly index: SearchIndex;
  /** Opens a further index (other tuning, a second index); disposed when the test ends. */
  readonly open: OpenSearchIndex;
}

/**
 * The set-up the behaviour suites share: before each test of the enclosing `describe`, a fresh
 * corpus and an index opened with `tuning`; after it, both disposed (the corpus first, then every
 * index the test opened — vitest runs after-hooks in reverse order).
 */
export function withTestIndex(openIndex: OpenSearchIndex, tuning: SearchIndexTuning = {}): TestIndexFixture {
  const open = disposedAfterEach(openIndex);
  let corpus: TestCorpus | undefined;
  let index: SearchIndex | undefined;
  beforeEach(async () => {
    corpus = await openTestCorpus();
    index = (await open(tuning)).index;
  });
  afterEach(async () => {
    const done = corpus;
    corpus = undefined;
    index = undefined;
    await done?.dispose();
  });
  const running = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('withTestIndex: read the fixture inside a test');
    return value;
  };
  return {
    get corpus() {
      return running(corpus);
    },
    get index() {
      return running(index);
    },
    open,
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
