import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { peekSqliteStore } from '../source/sqlite-store.js';

/** A `state.vscdb` by its SQLite header and Cursor's `cursorDiskKV` table. */
export function peekCursor(unit: SourceUnit): Promise<Peek> {
  return peekSqliteStore(unit, {
    what: 'a Cursor state database',
    tables: ['cursorDiskKV'],
    idPrefix: 'cursor',
  });
}
