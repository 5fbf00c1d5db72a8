import type { Pool } from 'pg';
import { revisionToken } from '@strand/persistence';
import type { WriteResult } from './append-queue.js';
import type { RoundOutcome } from './append-rounds.js';
import { sqlState } from './persistence-errors.js';
import * as sql from './statements.js';
import { whyNotWritten, writeOne, type OneRowWrite } from './write-one.js';

/**
 * SQLSTATE classes of a statement the server refused as a whole, having committed nothing of it:
 * data exceptions (22), constraint violations (23), and serialization failures or deadlocks
 * (40: two hosts' rounds may lock the same sessions in different orders).
 */
const STATEMENT_REFUSED = new Set(['22', '23', '40']);

/**
 * Sends a round of one-row writes of different sessions as ONE statement (`appendRound`): one
 * round trip and one commit for all of them. A write the statement did not carry out (its guard
 * failed, or another host created its id first) fails alone, with the error it would have had
 * alone. If the server refuses the statement as a whole, nothing of it was committed and each
 * write is sent again alone, so the one at fault fails alone. Any other failure (the connection,
 * the server) fails the whole round: none of its writes is known to be durable.
 */
export async function sendRound(
  pool: Pool,
  writes: readonly OneRowWrite[],
): Promise<RoundOutcome<WriteResult>[]> {
  if (writes.length === 1) return [await settle(writeOne(pool, writes[0]!))];
  let rows: [string, string, string, string][];
  try {
    rows = (await pool.query(sql.appendRound(roundColumns(writes)))).rows as [
      string,
      string,
      string,
      string,
    ][];
  } catch (error) {
    const state = sqlState(error);
    if (state === undefined || !STATEMENT_REFUSED.has(state.slice(0, 2))) throw error;
    return Promise.all(writes.map((write) => settle(writeOne(pool, write))));
  }
  const written = new Map(rows.map((row) => [row[0], row]));
  return Promise.all(
    writes.map(async (write): Promise<RoundOutcome<WriteResult>> => {
      const row = written.get(write.id);
      // The written ones of the round stand whatever asking why this one was refused meets.
      if (row === undefined)
        return { kind: 'failed', error: await whyNotWritten(pool, write).catch((error: unknown) => error) };
      return {
        kind: 'written',
        result: { revision: revisionToken(row[1], row[2]), storedBytes: Number(row[3]) },
      };
    }),
  );
}

function roundColumns(writes: readonly OneRowWrite[]): sql.RoundColumns {
  const columns: sql.RoundColumns = {
    ids: [],
    firstSeqs: [],
    counts: [],
    lines: [],
    incarnations: [],
    headers: [],
    inheritedEventCounts: [],
  };
  for (const { id, row, pending, incarnation } of writes) {
    columns.ids.push(id);
    columns.firstSeqs.push(row.firstSeq);
    columns.counts.push(row.count);
    columns.lines.push(row.lines);
    columns.incarnations.push(pending?.incarnation ?? incarnation ?? null);
    columns.headers.push(pending?.headerJson ?? null);
    columns.inheritedEventCounts.push(pending?.inheritedEventCount ?? 0);
  }
  return columns;
}

async function settle(writing: Promise<WriteResult>): Promise<RoundOutcome<WriteResult>> {
  try {
    return { kind: 'written', result: await writing };
  } catch (error) {
    return { kind: 'failed', error };
  }
}
