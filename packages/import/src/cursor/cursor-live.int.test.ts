import path from 'node:path';
import { readCursorDump, restoreCursorDb, writeCursorBubbles } from '../testing/cursor-db.js';
import { describeDatabaseLiveIngest } from '../testing/database-live.js';
import { PACKAGE_SRC } from '../testing/fixture-dirs.js';

/** Live ingest of Cursor's `state.vscdb` while "Cursor" (the editor's connection, kept open) stores further bubbles. */
const DUMP = readCursorDump(path.join(PACKAGE_SRC, 'cursor', 'fixtures', 'db', 'tool-calls.json'));

describeDatabaseLiveIngest({
  harness: 'cursor',
  file: 'state.vscdb',
  session: 'cursor-c-tools',
  rows: 'bubbles',
  restoreEarlier: (file) => restoreCursorDb(DUMP, file, { bubbles: 3 }),
  commitRest: (harness) => writeCursorBubbles(harness, DUMP, 3),
  restoreWhole: (file) => restoreCursorDb(DUMP, file).close(),
  sessions: 1,
});
