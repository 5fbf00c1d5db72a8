import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverCrush } from './discover.js';
import { mapCrush } from './map-crush.js';
import { peekCrush } from './peek.js';

export const crushImporter: HarnessImporter = {
  harness: 'crush',
  // crush keeps a database per project (`<project>/.crush/crush.db`): there is no per-user folder
  // to default to, so the folder must be named (a project, or a folder of projects).
  defaultDir: () => undefined,
  discover: discoverCrush,
  peek: peekCrush,
  map: mapCrush,
  // A database is not a file appended to: every change is read whole (one snapshot) and compared.
  incremental: () => Promise.resolve(undefined),
  // crush opens its database in WAL mode: until a checkpoint its writes reach only `crush.db-wal`.
  companionChangesUnit: true,
};
