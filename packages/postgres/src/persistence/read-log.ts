import type { Pool } from 'pg';
import {
  revisionToken,
  storedSuffix,
  throwIfAborted,
  type StoredLog,
  type StoredSuffix,
} from '@strand/persistence';
import {
  isReadOnlySession,
  repairEvents,
  SessionLogOffset,
  type SessionEvent,
  type SessionId,
  type SessionSeq,
} from '@strand/session';
import { decodeBatchRow } from './batch-lines.js';
import { decodeStoredHeader as decodeHeader } from '@strand/persistence';
import { corrupt, notFound } from './persistence-errors.js';
import * as sql from './statements.js';

/**
 * `[incarnation, header, inherited_event_count, next_seq, revision, stored_bytes, first_seq,
 * count, lines]`; the batch columns are null on the one line of a session with no batch.
 */
type LogLine = [string, string, number, number, string, string, number | null, number | null, string | null];

/** The whole stored log, deep-frozen, with the closers a crashed turn needs computed in memory. */
export async function readStoredLog(
  pool: Pool,
  id: SessionId,
  signal: AbortSignal | undefined,
): Promise<StoredLog> {
  throwIfAborted(signal, id);
  const lines = (await pool.query(sql.readLog(id))).rows as LogLine[];
  throwIfAborted(signal, id);
  const [incarnation, headerJson, inherited, nextSeq, revision, storedBytes] = sessionOf(lines, id);
  const events = decodeLines(lines, id, 0, nextSeq, signal);
  const header = decodeHeader(headerJson, id);
  return Object.freeze({
    header,
    incarnation,
    revision: revisionToken(incarnation, revision),
    storedBytes: Number(storedBytes),
    inheritedEventCount: SessionLogOffset(inherited),
    events: Object.freeze(events),
    // Deterministic closers: exactly what a later `load` writes. Never written from here.
    // An imported session's open turn is its harness's to close, never crash repair's.
    repairs: Object.freeze(isReadOnlySession(header) ? [] : repairEvents(events)),
    // A PostgreSQL commit is atomic: there is no torn tail to find.
    tornTail: false,
  });
}

/** The events with `seq >= from`: only the batches from the one holding `from` are read. */
export async function readStoredSuffix(
  pool: Pool,
  id: SessionId,
  from: SessionSeq,
  signal: AbortSignal | undefined,
): Promise<StoredSuffix> {
  throwIfAborted(signal, id);
  const lines = (await pool.query(sql.readSuffix(id, from))).rows as LogLine[];
  throwIfAborted(signal, id);
  const [incarnation, headerJson, inherited, nextSeq, revision] = sessionOf(lines, id);
  const events = decodeLines(lines, id, from, nextSeq, signal);
  return storedSuffix(id, { incarnation, headerJson, inherited, nextSeq, revision }, from, events);
}

function sessionOf(lines: readonly LogLine[], id: string): LogLine {
  const first = lines[0];
  if (first === undefined) throw notFound(id);
  return first;
}

/**
 * Decodes the batch lines of a read into the events with `seq >= from`. Batches must run
 * contiguously — the first one holding `from`, each next one starting where the previous ended —
 * and end exactly where the session row says the log ends; anything else is a seq gap, reported
 * as corruption naming the session and seq.
 */
function decodeLines(
  lines: LogLine[],
  id: string,
  from: number,
  nextSeq: number,
  signal: AbortSignal | undefined,
): SessionEvent[] {
  const events: SessionEvent[] = [];
  let expected: number | undefined;
  for (const line of lines) {
    const [, , , , , , firstSeq, count, text] = line;
    if (firstSeq === null || count === null || text === null) continue;
    if (expected === undefined ? firstSeq > from : firstSeq !== expected) {
      const want = expected ?? from;
      throw corrupt(id, want, `seq gap: expected ${want}, got ${firstSeq}`);
    }
    const batch = decodeBatchRow(text, firstSeq, count, id);
    // Let the row's text die young: the raw lines of a large log cost as much memory again.
    line[8] = null;
    for (let i = Math.max(0, from - firstSeq); i < batch.length; i++) events.push(batch[i]!);
    expected = firstSeq + count;
    throwIfAborted(signal, id);
  }
  const end = expected ?? from;
  if (from < nextSeq && end !== nextSeq) {
    throw corrupt(
      id,
      end,
      `seq gap: the session row says the log ends before seq ${nextSeq}, batches end before ${end}`,
    );
  }
  return events;
}
