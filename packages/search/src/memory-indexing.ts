import type { SessionEvent, SessionHeader, SessionId } from '@strand/session';
import type { SearchIndexStore } from './index-store.js';
import type { IndexWriter } from './index-writer.js';
import type { BeginMode } from './write-rules.js';

/** Events per write transaction (memory and disk alike): bounds how long one commit blocks the loop. */
export const INDEX_BATCH_EVENTS = 1_024;

/** What the index needs of a live session (`Session` satisfies it). */
export interface LiveLog {
  readonly id: SessionId;
  readonly incarnation: string | undefined;
  /** Its facets are filed from it when its row is created or re-bound. */
  readonly header: SessionHeader;
  /** A fork's inherited prefix length: its text rows start there (0: not a fork). */
  readonly inheritedEventCount: number;
  readonly events: readonly SessionEvent[];
}

export interface IndexCounts {
  events: number;
  rows: number;
}

export interface IndexMemoryOptions {
  /** Drop what is indexed and start from 0. */
  readonly reset?: boolean;
  /** Index up to this cut (default: every event in memory). */
  readonly upTo?: number;
}

/*
 * Indexing a live session's memory, from the indexed cut up to `upTo`, one transaction per batch.
 * No disk read: memory is the source while a session is live. A different incarnation, a `reset`,
 * or a log shorter than the cut re-indexes from 0. Two copies of one short loop: `indexMemory`
 * over any `SearchIndexStore` (awaited), and `indexMemorySteps` for the synchronous SQLite writer,
 * whose `indexLive` must have committed when it returns. Change them together.
 */

/** The synchronous loop (SQLite): yields the running counts after each batch. */
export function* indexMemorySteps(
  writer: IndexWriter,
  log: LiveLog,
  options: IndexMemoryOptions = {},
): Generator<IndexCounts, IndexCounts> {
  const incarnation = log.incarnation ?? null;
  const counts: IndexCounts = { events: 0, rows: 0 };
  let row = writer.begin(log.id, incarnation, beginMode(options), log);
  if (row.cut > log.events.length) row = writer.begin(log.id, incarnation, { kind: 'reset' }, log);
  for (const batch of batchesFrom(log, row.cut, options.upTo)) {
    const outcome = writer.append(log.id, incarnation, batch, 'memory');
    if (outcome.stale) break;
    counts.events += outcome.events;
    counts.rows += outcome.rows;
    yield counts;
  }
  return counts;
}

/** How a memory pass begins its row: from scratch when asked to, else where the row stands. */
function beginMode(options: IndexMemoryOptions): BeginMode {
  return options.reset === true ? { kind: 'reset' } : { kind: 'keep' };
}

/**
 * The batches a memory pass commits: `log.events` from `cut` up to `upTo` (default the end), at
 * most `INDEX_BATCH_EVENTS` each. One definition for the synchronous and the asynchronous pass.
 */
function* batchesFrom(log: LiveLog, cut: number, upTo: number | undefined): Generator<SessionEvent[]> {
  const end = Math.min(upTo ?? log.events.length, log.events.length);
  for (let from = cut; from < end; from += INDEX_BATCH_EVENTS)
    yield log.events.slice(from, Math.min(end, from + INDEX_BATCH_EVENTS));
}

/** Runs `indexMemorySteps` to the end, synchronously. */
export function indexMemoryNow(
  writer: IndexWriter,
  log: LiveLog,
  options: IndexMemoryOptions = {},
): IndexCounts {
  const steps = indexMemorySteps(writer, log, options);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * The same loop over any `SearchIndexStore`; `afterBatch` runs after each committed batch (a sync
 * yields to the event loop and checks its signal there).
 */
export async function indexMemory(
  store: SearchIndexStore,
  log: LiveLog,
  options: IndexMemoryOptions = {},
  afterBatch?: (counts: IndexCounts) => Promise<void> | void,
): Promise<IndexCounts> {
  const incarnation = log.incarnation ?? null;
  const counts: IndexCounts = { events: 0, rows: 0 };
  let row = await store.begin(log.id, incarnation, beginMode(options), log);
  if (row.cut > log.events.length) row = await store.begin(log.id, incarnation, { kind: 'reset' }, log);
  for (const batch of batchesFrom(log, row.cut, options.upTo)) {
    const outcome = await store.append(log.id, incarnation, batch, 'memory');
    if (outcome.stale) break;
    counts.events += outcome.events;
    counts.rows += outcome.rows;
    await afterBatch?.(counts);
  }
  return counts;
}
