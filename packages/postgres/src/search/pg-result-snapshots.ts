import type pg from 'pg';
import {
  decodeSnapshotEntries,
  encodeSnapshotEntries,
  type RankedEntry,
  type SnapshotHead,
  type SnapshotRetention,
} from '@strand/search/kit';

/*
 * Result snapshots in the database, shared by every host on it, with the SQLite index's meaning
 * (append-only chunks of ranked entries; positions handed out never move). Callers own the
 * transaction; a head read for a later page is locked `FOR UPDATE`, so two hosts extending one
 * snapshot at once take turns and the second finds it extended.
 */

interface RawHead {
  readonly id: string;
  readonly generation: string;
  readonly expression: string;
  readonly filter: string | null;
  readonly upper_sid: string | null;
  readonly size: number;
}

const toHead = (raw: RawHead): SnapshotHead => ({
  id: Number(raw.id),
  generation: Number(raw.generation),
  expression: raw.expression,
  filter: raw.filter,
  upperSid: raw.upper_sid === null ? null : Number(raw.upper_sid),
  size: raw.size,
});

export async function createSnapshot(
  client: pg.ClientBase,
  generation: number,
  expression: string,
  filter: string | null,
  upperSid: number | null,
  entries: readonly RankedEntry[],
  now: number,
): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO search_snapshots (generation, expression, filter, upper_sid, size, touched_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [generation, expression, filter, upperSid, entries.length, now],
  );
  const id = Number(rows[0]!.id);
  await insertChunk(client, id, 0, entries);
  return id;
}

/** The snapshot's head, locked for this transaction; `undefined` when it was dropped. */
export async function lockSnapshot(client: pg.ClientBase, id: number): Promise<SnapshotHead | undefined> {
  const { rows } = await client.query<RawHead>(
    'SELECT id, generation, expression, filter, upper_sid, size FROM search_snapshots WHERE id = $1 FOR UPDATE',
    [id],
  );
  return rows[0] === undefined ? undefined : toHead(rows[0]);
}

/** Appends the entries of further windows at positions `head.size` onwards. */
export async function extendSnapshot(
  client: pg.ClientBase,
  head: SnapshotHead,
  entries: readonly RankedEntry[],
  upperSid: number | null,
  now: number,
): Promise<SnapshotHead> {
  if (entries.length > 0) await insertChunk(client, head.id, head.size, entries);
  const size = head.size + entries.length;
  await client.query('UPDATE search_snapshots SET upper_sid = $2, size = $3, touched_at = $4 WHERE id = $1', [
    head.id,
    upperSid,
    size,
    now,
  ]);
  return { ...head, upperSid, size };
}

/** The entries at positions [from, from + count). */
export async function snapshotEntries(
  client: pg.ClientBase,
  id: number,
  from: number,
  count: number,
): Promise<RankedEntry[]> {
  const { rows } = await client.query<{ first_position: number; entries: string }>(
    `SELECT first_position, entries FROM search_snapshot_chunks
     WHERE snapshot_id = $1 AND first_position < $2 AND first_position + count > $3 ORDER BY first_position`,
    [id, from + count, from],
  );
  const out: RankedEntry[] = [];
  for (const chunk of rows) {
    const entries = decodeSnapshotEntries(chunk.entries);
    const start = Math.max(0, from - chunk.first_position);
    const end = Math.min(entries.length, from + count - chunk.first_position);
    out.push(...entries.slice(start, end));
  }
  return out;
}

export async function touchSnapshot(client: pg.ClientBase, id: number, now: number): Promise<void> {
  await client.query('UPDATE search_snapshots SET touched_at = $2 WHERE id = $1', [id, now]);
}

/**
 * Drops snapshots idle past retention and all but the newest `maxSnapshots`. A snapshot another
 * page holds right now is skipped (`SKIP LOCKED`), never waited for: the next prune gets it.
 */
export async function pruneSnapshots(
  client: pg.ClientBase,
  now: number,
  retention: SnapshotRetention,
): Promise<void> {
  await client.query(
    `DELETE FROM search_snapshots WHERE id IN (
       SELECT id FROM search_snapshots WHERE touched_at < $1 FOR UPDATE SKIP LOCKED)`,
    [now - retention.maxIdleMs],
  );
  await client.query(
    `DELETE FROM search_snapshots WHERE id IN (
       SELECT id FROM search_snapshots ORDER BY touched_at DESC, id DESC OFFSET $1 FOR UPDATE SKIP LOCKED)`,
    [retention.maxSnapshots],
  );
}

async function insertChunk(
  client: pg.ClientBase,
  id: number,
  firstPosition: number,
  entries: readonly RankedEntry[],
): Promise<void> {
  await client.query(
    'INSERT INTO search_snapshot_chunks (snapshot_id, first_position, count, entries) VALUES ($1, $2, $3, $4)',
    [id, firstPosition, entries.length, encodeSnapshotEntries(entries)],
  );
}
