import { readSqliteStore, type SqliteStoreRead } from '../source/sqlite-store.js';

/** One composer (a Cursor chat): its `composerData:<id>` value, unparsed (a bad one is reported where mapped). */
export interface CursorComposerRow {
  readonly id: string;
  readonly value: string;
}

export interface CursorSnapshot {
  readonly composers: readonly CursorComposerRow[];
  /** `bubbleId:<composerId>:<bubbleId>` values, unparsed, by composer then bubble. */
  readonly bubbles: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

export type CursorStoreRead = SqliteStoreRead<CursorSnapshot>;

const COMPOSER = 'composerData:';
const BUBBLE = 'bubbleId:';

/**
 * Reads the chats of Cursor's `state.vscdb` (the editor's `globalStorage` database, a VS Code
 * key-value store: `cursorDiskKV(key TEXT UNIQUE, value BLOB)`) as every harness store is read
 * (`readSqliteStore`): read-only, never `immutable` (Cursor writes it while it runs), both key
 * ranges in **one read transaction**, so a composer and its bubbles come from one snapshot. Keys
 * are read by range (`>= 'bubbleId:' AND < 'bubbleId;'`), which the key's unique index answers
 * without a scan of the editor's other keys.
 */
export function readCursorStore(file: string, busyTimeoutMs = 2000): CursorStoreRead {
  return readSqliteStore(
    file,
    busyTimeoutMs,
    { what: 'a Cursor state database', needed: { cursorDiskKV: ['key', 'value'] } },
    (db): CursorSnapshot => {
      const range = db.prepare('SELECT key, value FROM cursorDiskKV WHERE key >= ? AND key < ? ORDER BY key');
      const composers: CursorComposerRow[] = [];
      for (const r of range.iterate(COMPOSER, upper(COMPOSER)) as IterableIterator<Row>) {
        const value = text(r.value);
        if (value !== undefined) composers.push({ id: r.key.slice(COMPOSER.length), value });
      }
      const bubbles = new Map<string, Map<string, string>>();
      for (const r of range.iterate(BUBBLE, upper(BUBBLE)) as IterableIterator<Row>) {
        const rest = r.key.slice(BUBBLE.length);
        const colon = rest.indexOf(':');
        const value = text(r.value);
        if (colon <= 0 || value === undefined) continue;
        const composerId = rest.slice(0, colon);
        let of = bubbles.get(composerId);
        if (of === undefined) bubbles.set(composerId, (of = new Map<string, string>()));
        of.set(rest.slice(colon + 1), value);
      }
      return { composers, bubbles };
    },
  );
}

interface Row {
  readonly key: string;
  readonly value: unknown;
}

/** The first key past every key with `prefix` (`:` + 1 is `;`). */
const upper = (prefix: string): string => `${prefix.slice(0, -1)};`;

/** VS Code's storage writes values as text; a BLOB holds the same UTF-8. NULL: no value. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return undefined;
}
