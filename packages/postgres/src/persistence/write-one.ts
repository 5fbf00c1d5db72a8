import type { Pool, PoolClient } from 'pg';
import { revisionToken, type Attachment } from '@strand/persistence';
import type { SessionId } from '@strand/session';
import type { WriteResult } from './append-queue.js';
import type { BatchRow } from './batch-lines.js';
import { exists, notFound, seqConflict } from './persistence-errors.js';
import * as sql from './statements.js';

/** A session `create`d in this process whose row is not written yet (creation is lazy). */
export interface PendingSession {
  readonly incarnation: string;
  readonly headerJson: string;
  readonly inheritedEventCount: number;
  /** Attachments put before the first write; stored in the first write's transaction. */
  readonly attachments: Map<string, Attachment>;
}

/**
 * The common write: one batch row of session `id`, with `pending` its first write (then without
 * attachments). It fits in one statement, alone (`writeOne`) or in a round (`sendRound`).
 */
export interface OneRowWrite {
  readonly id: SessionId;
  readonly row: BatchRow;
  readonly pending: PendingSession | undefined;
  readonly incarnation: string | undefined;
}

/** One write in its own statement (one round trip, its own transaction). */
export async function writeOne(
  pool: Pool,
  { id, row, pending, incarnation }: OneRowWrite,
): Promise<WriteResult> {
  const result =
    pending === undefined
      ? await pool.query(sql.appendBatch([id, row.firstSeq, row.count, row.lines, incarnation ?? null]))
      : await pool.query(
          sql.createWithBatch([
            id,
            row.firstSeq,
            row.count,
            row.lines,
            pending.incarnation,
            pending.headerJson,
            pending.inheritedEventCount,
          ]),
        );
  const written = result.rows[0] as [string, string, string] | undefined;
  if (written === undefined) throw await whyNotWritten(pool, { id, row, pending, incarnation });
  return { revision: revisionToken(written[0], written[1]), storedBytes: Number(written[2]) };
}

/** The error of a one-row write that matched nothing: another host created the id first, or `whyRefused`. */
export function whyNotWritten(pool: Pool, { id, row, pending, incarnation }: OneRowWrite): Promise<Error> {
  return pending === undefined
    ? whyRefused(pool, id, row.firstSeq, incarnation)
    : Promise.resolve(exists(id));
}

/**
 * A guarded write matched no row: the session is gone (or is another incarnation than the one a
 * repair read), or another writer moved its log — "expected <stored next seq>, got <first seq>".
 */
export async function whyRefused(
  db: Pool | PoolClient,
  id: string,
  firstSeq: number,
  incarnation: string | undefined,
): Promise<Error> {
  const state = await db.query(sql.sessionState(id));
  const stored = state.rows[0] as [string, number] | undefined;
  if (stored === undefined || (incarnation !== undefined && stored[0] !== incarnation)) return notFound(id);
  return seqConflict(id, stored[1], firstSeq);
}
