import type { Pool, PoolClient } from 'pg';
import { revisionToken } from '@strand/persistence';
import type { SessionEvent, SessionId, SessionSeq } from '@strand/session';
import { formatAppendNotice } from './append-notice.js';
import type { WriteResult } from './append-queue.js';
import { encodeBatchRows, type BatchRow } from './batch-lines.js';
import { withCheckedOutClient } from './checked-out-client.js';
import type { AppendRounds } from './append-rounds.js';
import { exists, seqConflict, toPersistenceError } from './persistence-errors.js';
import * as sql from './statements.js';
import { whyRefused, type OneRowWrite, type PendingSession } from './write-one.js';

/**
 * One durable write of contiguous `events` to session `id`; the `WriteGroup` of the append
 * queue. With `pending`, this is the session's first write: its row is created with it (and the
 * id refused with PERSISTENCE_EXISTS if another host stored it first). Otherwise the session row
 * must still end where `events` start — the guard that keeps two writers from interleaving.
 * The common case (one row, nothing else) is one statement, sent through `rounds` together with
 * the other sessions' writes pending at the same moment (one round trip, one commit for all);
 * larger writes, and a first write carrying attachments, take an explicit transaction of their
 * own. Either way the append notice is sent in the writing transaction, and this resolves only
 * after COMMIT.
 */
export async function writeGroup(
  pool: Pool,
  rounds: AppendRounds<OneRowWrite, WriteResult>,
  id: SessionId,
  events: readonly SessionEvent[],
  pending: PendingSession | undefined,
  incarnation: string | undefined,
): Promise<WriteResult> {
  // No events: a materialized creation (the session row alone, in the transaction path).
  const firstSeq = events[0]?.seq ?? 0;
  try {
    if (pending !== undefined && firstSeq !== 0) throw seqConflict(id, 0, firstSeq);
    const rows = encodeBatchRows(events, firstSeq);
    const [row] = rows;
    if (rows.length === 1 && row !== undefined && (pending === undefined || pending.attachments.size === 0)) {
      return await rounds.write({ id, row, pending, incarnation });
    }
    return await writeInTransaction(pool, id, rows, events.length, pending, incarnation);
  } catch (error) {
    throw toPersistenceError(error, `append to session ${id}`, id);
  }
}

async function writeInTransaction(
  pool: Pool,
  id: SessionId,
  rows: readonly BatchRow[],
  count: number,
  pending: PendingSession | undefined,
  incarnation: string | undefined,
): Promise<WriteResult> {
  const firstSeq = (rows[0]?.firstSeq ?? 0) as SessionSeq;
  let bytes = 0;
  for (const row of rows) bytes += Buffer.byteLength(row.lines) + sql.BATCH_ROW_OVERHEAD;
  return withCheckedOutClient(pool, async (client, markBroken) => {
    await client.query('BEGIN');
    try {
      let result: WriteResult;
      let storedIncarnation: string;
      if (pending !== undefined) {
        storedIncarnation = pending.incarnation;
        result = await insertSessionRow(client, id, pending, count, bytes);
      } else {
        const advanced = await client.query(
          sql.advanceSession([id, firstSeq, count, bytes, incarnation ?? null]),
        );
        const row = advanced.rows[0] as [string, string, string] | undefined;
        if (row === undefined) throw await whyRefused(client, id, firstSeq, incarnation);
        storedIncarnation = row[0];
        result = { revision: revisionToken(row[0], row[1]), storedBytes: Number(row[2]) };
      }
      for (const row of rows) await client.query(sql.insertBatch([id, row.firstSeq, row.count, row.lines]));
      // A materialized creation has no events to announce: other hosts see it at their next list.
      if (count > 0)
        await client.query(
          sql.notify(
            formatAppendNotice({
              id,
              incarnation: storedIncarnation,
              from: firstSeq,
              count,
              revision: result.revision,
            }),
          ),
        );
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        // The connection itself failed: destroy it rather than return it to the pool mid-transaction.
        markBroken(rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError)));
      });
      throw error;
    }
  });
}

async function insertSessionRow(
  client: PoolClient,
  id: string,
  pending: PendingSession,
  count: number,
  bytes: number,
): Promise<WriteResult> {
  const storedBytes = Buffer.byteLength(pending.headerJson) + bytes;
  const inserted = await client.query(
    sql.insertSession([
      id,
      pending.incarnation,
      pending.headerJson,
      pending.inheritedEventCount,
      count,
      storedBytes,
    ]),
  );
  const row = inserted.rows[0] as [string] | undefined;
  if (row === undefined) throw exists(id);
  for (const [ref, { bytes: blob, mediaType }] of pending.attachments) {
    await client.query(
      sql.insertAttachment([id, ref, mediaType, Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength)]),
    );
  }
  return { revision: revisionToken(pending.incarnation, row[0]), storedBytes };
}
