import path from 'node:path';
import { discoverOpencode } from '../opencode/discover.js';
import { OPENCODE, type StoreFlavour } from '../opencode/flavour.js';
import { mapStore } from '../opencode/map-opencode.js';
import { peekOpencode } from '../opencode/peek.js';
import type { HarnessImporter } from '../run/harness-importer.js';

/**
 * Kilo Code's CLI (`@kilocode/cli`, `kilo`) is a fork of opencode that keeps opencode's store:
 * `kilo.db` (or `kilo-<channel>.db`) with the same `session`, `message` and `part` tables and the
 * same JSON in their `data` columns (checked on what kilo 7.7.7 writes in the bed). So this
 * importer is opencode's with another flavour: the harness name (`source.harness: 'kilo'`, ids
 * `kilo-<session id>`, the database's `kilo-db-<digest>`) and the data folder. See the README.
 */
export const KILO: StoreFlavour = {
  harness: 'kilo',
  article: 'a Kilo',
  // opencode's folders beside the database, which kilo keeps as well.
  notSessions: OPENCODE.notSessions,
};

export const kiloImporter: HarnessImporter = {
  harness: 'kilo',
  // `$XDG_DATA_HOME/kilo` (opencode's `Global.Path.data` with kilo's app name); the default is this.
  defaultDir: (home) => path.join(home, '.local', 'share', 'kilo'),
  discover: (root) => discoverOpencode(root, KILO),
  peek: (unit) => peekOpencode(unit, KILO),
  map: (unit, peek) => mapStore(unit, peek, KILO),
  // A database is read whole on every change (one snapshot) and compared, as opencode's.
  incremental: () => Promise.resolve(undefined),
  // Until a checkpoint, kilo's writes reach only `kilo.db-wal`.
  companionChangesUnit: true,
};
