import path from 'node:path';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverOpencode } from './discover.js';
import { mapOpencode } from './map-opencode.js';
import { peekOpencode } from './peek.js';

export const opencodeImporter: HarnessImporter = {
  harness: 'opencode',
  // opencode keeps its data in `$XDG_DATA_HOME/opencode` (Bun's xdg-basedir); the default is this.
  defaultDir: (home) => path.join(home, '.local', 'share', 'opencode'),
  discover: (root) => discoverOpencode(root),
  peek: peekOpencode,
  map: mapOpencode,
  // A database is not a file appended to: every change is read whole (one snapshot) and compared.
  incremental: () => Promise.resolve(undefined),
  // Until a checkpoint, opencode's writes reach only `opencode.db-wal`.
  companionChangesUnit: true,
};
