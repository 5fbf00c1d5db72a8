import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * Cursor fixtures are JSON dumps of the chats in a `state.vscdb` — `composerData:<id>` and
 * `bubbleId:<composer>:<bubble>` values — built by `scripts/cursor-fixtures.py` from the shapes
 * open-source readers of Cursor's store show (no Cursor runs here; see `cursor/fixtures/SOURCES.md`).
 * `restoreCursorDb` writes the database (VS Code's two key-value tables) for a test.
 */
export interface CursorDump {
  readonly harness: 'cursor';
  readonly scenario: string;
  readonly basis: string;
  readonly composers: readonly { readonly id: string; readonly value: Record<string, unknown> }[];
  readonly bubbles: readonly {
    readonly composerId: string;
    readonly bubbleId: string;
    readonly value: Record<string, unknown>;
  }[];
}

// VS Code's storage tables (`SQLiteStorageDatabase`), which Cursor's `cursorDiskKV` copies.
const SCHEMA = [
  'CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)',
  'CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)',
];

/**
 * Writes the database a dump holds to `file` (its folder created), in WAL mode. `limit` keeps only
 * the first `bubbles` of the dump, and each composer's headers of those: the database as it
 * stood earlier.
 */
export function restoreCursorDb(
  dump: CursorDump,
  file: string,
  limit?: { bubbles: number },
): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (const sql of SCHEMA) db.exec(sql);
  writeCursorBubbles(db, dump, 0, limit?.bubbles);
  return db;
}

/**
 * Writes the dump's bubbles `from` (inclusive) to `to` (exclusive), each with its composer's
 * headers up to it, one transaction each (as Cursor stores a bubble and lists it). Composers
 * with no keyed bubbles (an empty chat, an inline conversation) are written whole first.
 */
export function writeCursorBubbles(db: Database.Database, dump: CursorDump, from: number, to?: number): void {
  const put = db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
  if (from === 0)
    db.transaction(() => {
      for (const c of dump.composers)
        put.run(`composerData:${c.id}`, JSON.stringify(withHeaders(c.value, dump, c.id, 0)));
    })();
  const end = to ?? dump.bubbles.length;
  for (let i = from; i < end; i++) {
    const b = dump.bubbles[i]!;
    const composer = dump.composers.find((c) => c.id === b.composerId)!;
    db.transaction(() => {
      put.run(`bubbleId:${b.composerId}:${b.bubbleId}`, JSON.stringify(b.value));
      put.run(
        `composerData:${b.composerId}`,
        JSON.stringify(withHeaders(composer.value, dump, b.composerId, i + 1)),
      );
    })();
  }
}

/** A composer whose headers list only the bubbles among the dump's first `written`. */
function withHeaders(
  composer: Record<string, unknown>,
  dump: CursorDump,
  id: string,
  written: number,
): Record<string, unknown> {
  const headers = composer.fullConversationHeadersOnly;
  if (!Array.isArray(headers)) return composer;
  const stored = new Set(
    dump.bubbles
      .slice(0, written)
      .filter((b) => b.composerId === id)
      .map((b) => b.bubbleId),
  );
  return {
    ...composer,
    fullConversationHeadersOnly: headers.filter((h: { bubbleId: string }) => stored.has(h.bubbleId)),
  };
}

export function readCursorDump(file: string): CursorDump {
  return JSON.parse(readFileSync(file, 'utf8')) as CursorDump;
}
