import path from 'node:path';
import { describeDatabaseLiveIngest } from '../testing/database-live.js';
import { PACKAGE_SRC } from '../testing/fixture-dirs.js';
import { appendGooseMessages, readGooseDump, restoreGooseDb } from '../testing/goose-db.js';

/** Live ingest of goose's `sessions.db` while "goose" (its pool's connection, kept open) commits further messages. */
const DUMP = readGooseDump(path.join(PACKAGE_SRC, 'goose', 'fixtures', 'db', 'tool-calls.json'));

describeDatabaseLiveIngest({
  harness: 'goose',
  file: 'sessions.db',
  session: `goose-${String(DUMP.rows.sessions[0]!.id)}`,
  rows: 'messages',
  restoreEarlier: (file) => restoreGooseDb(DUMP, file, { messages: 3 }),
  commitRest: (harness) => appendGooseMessages(harness, DUMP, 3),
  restoreWhole: (file) => restoreGooseDb(DUMP, file).close(),
});
