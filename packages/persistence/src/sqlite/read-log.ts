import {
  isReadOnlySession,
  repairEvents,
  SessionLogOffset,
  type SessionEvent,
  type SessionId,
  type SessionSeq,
} from '@strand/session';
import { elidedOpenTurnStart, scanRepairs } from '../scanned-log.js';
import type { StoredLog, StoredSuffix } from '../types.js';
import { decodeHeader, revisionToken, storedSuffix } from '../stored-records.js';
import { checkLogEnd, decodeEvents } from './row-codec.js';
import { notFound } from './sqlite-errors.js';
import type { SessionRow, Statements } from './statements.js';

/*
 * The two body reads. Each spans two statements (session row, then events), so the caller runs it
 * inside one read transaction: one snapshot, and another connection's commit cannot slip between.
 */

/**
 * The whole stored log, deep-frozen, with the closers a crashed turn needs computed in memory.
 * With `dataTypes` (a scan), the data of other types is not parsed: those events carry `null`.
 */
export function readStoredLog(sql: Statements, id: SessionId, dataTypes?: ReadonlySet<string>): StoredLog {
  const [key, incarnation, headerJson, inherited, nextSeq, revision, storedBytes] = sessionRow(sql, id);
  const events = decodeEvents(sql.eventsOf.iterate(key), 0, id, dataTypes);
  checkLogEnd(events.length, nextSeq, id);
  const header = decodeHeader(headerJson, id);
  let repairs: SessionEvent[];
  // An imported session's open turn is its harness's to close, never crash repair's.
  if (isReadOnlySession(header)) repairs = [];
  else if (dataTypes === undefined) repairs = repairEvents(events);
  else {
    // Same read transaction: the open turn read again in full is the same turn.
    const start = elidedOpenTurnStart(events, dataTypes);
    const fullFrom =
      start === undefined ? undefined : decodeEvents(sql.eventsFrom.iterate(key, start), start, id);
    repairs = scanRepairs(id, events, fullFrom);
  }
  return Object.freeze({
    header,
    incarnation,
    revision: revisionToken(incarnation, revision),
    storedBytes,
    inheritedEventCount: SessionLogOffset(inherited),
    events: Object.freeze(events),
    // Deterministic closers: exactly what a later `load` writes. Never written from here.
    repairs: Object.freeze(repairs),
    // SQLite commits are atomic: there is no torn tail to find.
    tornTail: false,
  });
}

/** The events with `seq >= from`: one range scan of the (session, seq) key, nothing before it. */
export function readStoredSuffix(sql: Statements, id: SessionId, from: SessionSeq): StoredSuffix {
  const [key, incarnation, headerJson, inherited, nextSeq, revision] = sessionRow(sql, id);
  const events = decodeEvents(sql.eventsFrom.iterate(key, from), from, id);
  checkLogEnd(from + events.length, Math.max(from, nextSeq), id);
  return storedSuffix(id, { incarnation, headerJson, inherited, nextSeq, revision }, from, events);
}

function sessionRow(sql: Statements, id: SessionId): SessionRow {
  const row = sql.sessionById.get(id);
  if (row === undefined) throw notFound(id);
  return row;
}
