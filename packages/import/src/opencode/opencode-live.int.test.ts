import path from 'node:path';
import { describeDatabaseLiveIngest } from '../testing/database-live.js';
import { PACKAGE_SRC } from '../testing/fixture-dirs.js';
import { opencodeStyleLiveCase, readDump } from '../testing/opencode-db.js';

/** Live ingest of an opencode database while the harness commits further messages. */
describeDatabaseLiveIngest(
  opencodeStyleLiveCase(
    'opencode',
    readDump(path.join(PACKAGE_SRC, 'opencode', 'fixtures', 'subagent.json')),
  ),
);
