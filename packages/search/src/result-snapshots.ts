import type Database from 'better-sqlite3';
import {
  decodeSnapshotEntries,
  encodeSnapshotEntries,
  type SnapshotHead,
  type SnapshotRetention,
} from './page-rules.js';
import type { RankedEntry } from './ranked-window.js';

export type { SnapshotHead, SnapshotRetention } from './page-rules.js';

interface RawHead {
  readonly id: number;
  readonly generation: number;
  readonly expression: string;
  readonly filter: string | null;
  readonly upper_sid: number | null;
  readonly size: number;
}

interface RawChunk {
  readonly first_position: number;
  readonly entries: string;
}

/**
 * Result snapshots, stored in the index database so cursors survive a restart of the process and
 * are shared by every handle on the file. Append-only: each call that ranks windows adds one chunk
 * of entries at the next positions, so positions already handed out never move. Callers own the
 * transactions.
 */
export class ResultSnapshots {
  readonly #insertHead: Database.Statement<[number, string, string | null, number | null, number, number]>;
  readonly #head: Database.Statement<[number], RawHead>;
  readonly #insertChunk: Database.Statement<[number, number, number, string]>;
  readonly #chunks: Database.Statement<[number, number, number], RawChunk>;
  readonly #update: Database.Statement<[number | null, number, number, number]>;
  readonly #touch: Database.Statement<[number, number]>;
  readonly #doomed: Database.Statement<[number, number], number>;
  readonly #dropChunks: Database.Statement<[number]>;
  readonly #dropHead: Database.Statement<[number]>;

  constructor(db: Database.Database) {
    this.#insertHead = db.prepare(
      'INSERT INTO search_snapshots (generation, expression, filter, upper_sid, size, touched_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#head = db.prepare(
      'SELECT id, generation, expression, filter, upper_sid, size FROM search_snapshots WHERE id = ?',
    );
    this.#insertChunk = db.prepare(
      'INSERT INTO search_snapshot_chunks (snapshot_id, first_position, count, entries) VALUES (?, ?, ?, ?)',
    );
    this.#chunks = db.prepare(
      `SELECT first_position, entries FROM search_snapshot_chunks
       WHERE snapshot_id = ? AND first_position < ? AND first_position + count > ? ORDER BY first_position`,
    );
    this.#update = db.prepare(
      'UPDATE search_snapshots SET upper_sid = ?, size = ?, touched_at = ? WHERE id = ?',
    );
    this.#touch = db.prepare('UPDATE search_snapshots SET touched_at = ? WHERE id = ?');
    // Both arms walk the (touched_at, id) index: idle ones, and everything past the newest N.
    this.#doomed = db
      .prepare<[number, number], number>(
        `SELECT id FROM search_snapshots WHERE touched_at < ?
         UNION SELECT id FROM (SELECT id FROM search_snapshots ORDER BY touched_at DESC, id DESC LIMIT -1 OFFSET ?)`,
      )
      .pluck();
    this.#dropChunks = db.prepare('DELETE FROM search_snapshot_chunks WHERE snapshot_id = ?');
    this.#dropHead = db.prepare('DELETE FROM search_snapshots WHERE id = ?');
  }

  create(
    generation: number,
    expression: string,
    filter: string | null,
    upperSid: number | null,
    entries: readonly RankedEntry[],
    now: number,
  ): number {
    const id = Number(
      this.#insertHead.run(generation, expression, filter, upperSid, entries.length, now).lastInsertRowid,
    );
    this.#insertChunk.run(id, 0, entries.length, encodeSnapshotEntries(entries));
    return id;
  }

  get(id: number): SnapshotHead | undefined {
    const raw = this.#head.get(id);
    return raw === undefined
      ? undefined
      : {
          id: raw.id,
          generation: raw.generation,
          expression: raw.expression,
          filter: raw.filter,
          upperSid: raw.upper_sid,
          size: raw.size,
        };
  }

  /** Appends the entries of further windows at positions `head.size` onwards. */
  extend(
    head: SnapshotHead,
    entries: readonly RankedEntry[],
    upperSid: number | null,
    now: number,
  ): SnapshotHead {
    if (entries.length > 0)
      this.#insertChunk.run(head.id, head.size, entries.length, encodeSnapshotEntries(entries));
    const size = head.size + entries.length;
    this.#update.run(upperSid, size, now, head.id);
    return { ...head, upperSid, size };
  }

  /** The entries at positions [from, from + count). */
  entries(id: number, from: number, count: number): RankedEntry[] {
    const out: RankedEntry[] = [];
    for (const chunk of this.#chunks.all(id, from + count, from)) {
      const entries = decodeSnapshotEntries(chunk.entries);
      const start = Math.max(0, from - chunk.first_position);
      const end = Math.min(entries.length, from + count - chunk.first_position);
      out.push(...entries.slice(start, end));
    }
    return out;
  }

  touch(id: number, now: number): void {
    this.#touch.run(now, id);
  }

  prune(now: number, retention: SnapshotRetention): void {
    for (const id of this.#doomed.all(now - retention.maxIdleMs, retention.maxSnapshots)) {
      this.#dropChunks.run(id);
      this.#dropHead.run(id);
    }
  }
}
