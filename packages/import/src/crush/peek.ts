import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { peekSqliteStore } from '../source/sqlite-store.js';

/**
 * A database is recognised by content: the SQLite header, then crush's `sessions` and `messages`
 * tables (opencode-go's are the same; opencode's own store has `session`, `message`, `part`). Its
 * id names the database, not a session.
 */
export function peekCrush(unit: SourceUnit): Promise<Peek> {
  return peekSqliteStore(unit, {
    what: 'a crush database',
    tables: ['sessions', 'messages'],
    idPrefix: 'crush',
  });
}
