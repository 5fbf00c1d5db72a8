import { repairEvents, SessionLogOffset, type SessionId, type SessionSeq } from '@strand/session';
import type { StoredLog, StoredSuffix } from '../types.js';
import { decodeHeader } from '../stored-records.js';
import { checkLogEnd, decodeEvents } from './row-codec.js';
import { notFound } from './sqlite-errors.js';
import type { SessionRow, Statements } from './statements.js';
import { revisionToken } from './write-batch.js';

/*
 * The two body reads. Each spans two statements (session row, then events), so the caller runs it
 * inside one read transaction: one snapshot, and another connection's commit cannot slip between.
 */

/** The whole stored log, deep-frozen, with the closers a crashed turn needs computed in memory. */
export function readStoredLog(sql: Statements, id: SessionId): StoredLog {
  const [key, incarnation, headerJson, inherited, nextSeq, revision, storedBytes] = sessionRow(sql, id);
  const events = decodeEvents(sql.eventsOf.iterate(key), 0, id);
  checkLogEnd(events.length, nextSeq, id);
  return Object.freeze({
    header: decodeHeader(headerJson, id),
    incarnation,
    revision: revisionToken(incarnation, revision),
    storedBytes,
    inheritedEventCount: SessionLogOffset(inherited),
    events: Object.freeze(events),
    // Deterministic closers: exactly what a later `load` writes. Never written from here.
    repairs: Object.freeze(repairEvents(events)),
    // SQLite commits are atomic: there is no torn tail to find.
    tornTail: false,
  });
}

/** The events with `seq >= from`: one range scan of the (session, seq) key, nothing before it. */
export function readStoredSuffix(sql: Statements, id: SessionId, from: SessionSeq): StoredSuffix {
  const [key, incarnation, headerJson, inherited, nextSeq, revision] = sessionRow(sql, id);
  const events = decodeEvents(sql.eventsFrom.iterate(key, from), from, id);
  checkLogEnd(from + events.length, Math.max(from, nextSeq), id);
  return Object.freeze({
    header: decodeHeader(headerJson, id),
    inheritedEventCount: SessionLogOffset(inherited),
    incarnation,
    revision: revisionToken(incarnation, revision),
    from,
    events: Object.freeze(events),
    cursor: SessionLogOffset(nextSeq),
  });
}

function sessionRow(sql: Statements, id: SessionId): SessionRow {
  const row = sql.sessionById.get(id);
  if (row === undefined) throw notFound(id);
  return row;
}
