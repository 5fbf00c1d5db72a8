import Database from 'better-sqlite3';

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

export type CursorStoreRead =
  | { readonly kind: 'store'; readonly snapshot: CursorSnapshot }
  /** A SQLite file, but not a Cursor state database (no `cursorDiskKV` of its shape). */
  | { readonly kind: 'foreign'; readonly reason: string }
  /** Not readable now: locked past the timeout, corrupt, truncated. */
  | { readonly kind: 'unreadable'; readonly reason: string };

const COMPOSER = 'composerData:';
const BUBBLE = 'bubbleId:';

/**
 * Reads the chats of Cursor's `state.vscdb` (the editor's `globalStorage` database, a VS Code
 * key-value store: `cursorDiskKV(key TEXT UNIQUE, value BLOB)`) as goose's store is read
 * (`../goose/store.ts`): read-only, never `immutable` (Cursor writes it while it runs), both key
 * ranges in **one read transaction**, so a composer and its bubbles come from one snapshot. Keys
 * are read by range (`>= 'bubbleId:' AND < 'bubbleId;'`), which the key's unique index answers
 * without a scan of the editor's other keys. Busy past the timeout, corrupt or truncated: the
 * file is unreadable and retried on the next run.
 */
export function readCursorStore(file: string, busyTimeoutMs = 2000): CursorStoreRead {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  } catch (error) {
    return { kind: 'unreadable', reason: `cannot open: ${(error as Error).message}` };
  }
  try {
    const have = new Set(
      (db.prepare('PRAGMA table_info(cursorDiskKV)').all() as { name: string }[]).map((c) => c.name),
    );
    if (have.size === 0)
      return { kind: 'foreign', reason: 'no cursorDiskKV table (not a Cursor state database)' };
    if (!have.has('key') || !have.has('value'))
      return { kind: 'foreign', reason: 'cursorDiskKV without key and value columns (an unknown schema)' };
    const range = db.prepare('SELECT key, value FROM cursorDiskKV WHERE key >= ? AND key < ? ORDER BY key');
    const read = db.transaction((): CursorSnapshot => {
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
    });
    return { kind: 'store', snapshot: read() };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB') return { kind: 'foreign', reason: 'not a SQLite database' };
    return { kind: 'unreadable', reason: `cannot read: ${(error as Error).message}` };
  } finally {
    db.close();
  }
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
