import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { peekSqliteStore } from '../source/sqlite-store.js';
import { OPENCODE, type StoreFlavour } from './flavour.js';

/**
 * A database is recognised by content: the SQLite header, then opencode's `session`, `message`
 * and `part` tables. Its id names the database (`<harness>-db-…`), not a session.
 */
export function peekOpencode(unit: SourceUnit, flavour: StoreFlavour = OPENCODE): Promise<Peek> {
  return peekSqliteStore(unit, {
    what: `${flavour.article} database`,
    tables: ['session', 'message', 'part'],
    idPrefix: flavour.harness,
  });
}
