import { randomUUID } from 'node:crypto';
import type { SessionEvent, SessionHeader, SessionId } from '@strand/session';
import { revisionToken } from '../stored-records.js';
import type { Attachment } from '../types.js';
import type { SessionRow, Statements } from './statements.js';
import { exists, isUniqueViolation, notFound, seqConflict } from './sqlite-errors.js';

/** A session `create`d in this process whose row is not written yet (creation is lazy). */
export interface PendingSession {
  readonly incarnation: string;
  readonly headerJson: string;
  readonly inheritedEventCount: number;
  /** Attachments put before the first append; written in the first append's transaction. */
  readonly attachments: Map<string, Attachment>;
}

/** A new incarnation of `header`'s session, not written yet. */
export function newPendingSession(header: SessionHeader, inheritedEventCount: number): PendingSession {
  return {
    incarnation: randomUUID(),
    headerJson: JSON.stringify(header),
    inheritedEventCount,
    attachments: new Map(),
  };
}

export interface WriteResult {
  readonly revision: string;
  readonly storedBytes: number;
}

/** The public revision token: opaque to callers, unique across incarnations of one id. */

/**
 * The body of every durable write; the caller runs it inside one IMMEDIATE transaction, so any
 * throw rolls the whole batch back. Writes the session row first when `pending` is given (lazy
 * creation), checks that `events` continue the stored log exactly ("expected N, got M"), inserts
 * one row per event and bumps the revision. With `incarnation`, a session deleted and created
 * again since the caller read it counts as not found.
 */
export function writeBatch(
  sql: Statements,
  id: SessionId,
  events: readonly SessionEvent[],
  pending?: PendingSession,
  incarnation?: string,
): WriteResult {
  let row = sql.sessionById.get(id);
  if (pending !== undefined) {
    if (row !== undefined) throw exists(id);
    row = insertSessionRow(sql, id, pending);
  } else if (row === undefined || (incarnation !== undefined && row[1] !== incarnation)) {
    throw notFound(id);
  }
  const [key, rowIncarnation, , , nextSeq] = row;
  // No events: only a materialized creation (the session row alone).
  if (events.length > 0 && events[0]!.seq !== nextSeq) throw seqConflict(id, nextSeq, events[0]?.seq);
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    if (event.seq !== nextSeq + i) throw seqConflict(id, nextSeq + i, event.seq, ` (batch index ${i})`);
    const data = JSON.stringify(event.data);
    sql.insertEvent.run(key, event.seq, event.type, event.time, data);
  }
  const advanced = sql.advanceSession.get({ next: nextSeq + events.length, key, from: nextSeq });
  // Unreachable under the IMMEDIATE lock; kept so a broken locking assumption cannot fork a log.
  if (advanced === undefined) throw seqConflict(id, nextSeq, events[0]?.seq);
  return { revision: revisionToken(rowIncarnation, advanced[0]), storedBytes: advanced[1] };
}

function insertSessionRow(sql: Statements, id: SessionId, pending: PendingSession): SessionRow {
  const headerBytes = Buffer.byteLength(pending.headerJson);
  let key: number;
  try {
    key = Number(
      sql.insertSession.run(
        id,
        pending.incarnation,
        pending.headerJson,
        pending.inheritedEventCount,
        headerBytes,
      ).lastInsertRowid,
    );
  } catch (error) {
    // Another connection stored the same id between our check and this write.
    if (isUniqueViolation(error)) throw exists(id);
    throw error;
  }
  for (const [ref, { bytes, mediaType }] of pending.attachments) {
    sql.insertAttachment.run(
      key,
      ref,
      mediaType,
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    );
  }
  return [key, pending.incarnation, pending.headerJson, pending.inheritedEventCount, 0, 0, headerBytes];
}
