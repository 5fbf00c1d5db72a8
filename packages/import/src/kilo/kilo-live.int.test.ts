import path from 'node:path';
import { describeDatabaseLiveIngest } from '../testing/database-live.js';
import { PACKAGE_SRC } from '../testing/fixture-dirs.js';
import { opencodeStyleLiveCase, readDump } from '../testing/opencode-db.js';

/** Live ingest of kilo's database (`kilo.db`, opencode's schema) while the harness commits further messages. */
describeDatabaseLiveIngest(
  opencodeStyleLiveCase('kilo', readDump(path.join(PACKAGE_SRC, 'kilo', 'fixtures', 'subagent.json'))),
);
