import type { SessionEvent, SessionId } from '@strand/session';
import type { IndexWriter } from './index-writer.js';

/** Events per write transaction (memory and disk alike): bounds how long one commit blocks the loop. */
export const INDEX_BATCH_EVENTS = 1_024;

/** What the index needs of a live session (`Session` satisfies it). */
export interface LiveLog {
  readonly id: SessionId;
  readonly incarnation: string | undefined;
  readonly events: readonly SessionEvent[];
}

export interface IndexCounts {
  events: number;
  rows: number;
}

/**
 * Indexes a live session's in-memory events from the indexed cut up to `upTo` (default: all), one
 * transaction per batch, yielding the running counts after each batch so an async caller can check
 * its signal and let the loop breathe. No disk read: memory is the source while a session is live.
 * A different incarnation, a `reset`, or a log shorter than the cut re-indexes from 0.
 */
export function* indexMemorySteps(
  writer: IndexWriter,
  log: LiveLog,
  options: { reset?: boolean; upTo?: number } = {},
): Generator<IndexCounts, IndexCounts> {
  const incarnation = log.incarnation ?? null;
  const counts: IndexCounts = { events: 0, rows: 0 };
  let row = writer.begin(log.id, incarnation, options.reset === true ? { kind: 'reset' } : { kind: 'keep' });
  if (row.cut > log.events.length) row = writer.begin(log.id, incarnation, { kind: 'reset' });
  const end = Math.min(options.upTo ?? log.events.length, log.events.length);
  for (let from = row.cut; from < end; from += INDEX_BATCH_EVENTS) {
    const outcome = writer.append(
      log.id,
      incarnation,
      log.events.slice(from, Math.min(end, from + INDEX_BATCH_EVENTS)),
      'memory',
    );
    if (outcome.stale) break;
    counts.events += outcome.events;
    counts.rows += outcome.rows;
    yield counts;
  }
  return counts;
}

/** Runs `indexMemorySteps` to the end, synchronously. */
export function indexMemoryNow(
  writer: IndexWriter,
  log: LiveLog,
  options: { reset?: boolean; upTo?: number } = {},
): IndexCounts {
  const steps = indexMemorySteps(writer, log, options);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}
