import path from 'node:path';
import Database from 'better-sqlite3';
import { describeDatabaseLiveIngest } from '../testing/database-live.js';
import { PACKAGE_SRC } from '../testing/fixture-dirs.js';
import { appendCrushMessages, readCrushDump, restoreCrushDb } from '../testing/crush-db.js';

/**
 * Live ingest of a crush database inside a watched tree of projects while "crush" (a second
 * connection, kept open as the harness keeps it) commits further messages.
 */
const DUMP = readCrushDump(path.join(PACKAGE_SRC, 'crush', 'fixtures', 'subagent.json'));

describeDatabaseLiveIngest({
  harness: 'crush',
  file: path.join('project', '.crush', 'crush.db'),
  session: `crush-${String(DUMP.rows.sessions[0]!.id)}`,
  rows: 'messages',
  restoreEarlier: (file) => {
    restoreCrushDb(DUMP, file, { messages: 2 });
    const harness = new Database(file);
    harness.pragma('journal_mode = WAL');
    return harness;
  },
  commitRest: (harness) => appendCrushMessages(harness, DUMP, 2),
  restoreWhole: (file) => restoreCrushDb(DUMP, file),
  sessions: 2,
});
