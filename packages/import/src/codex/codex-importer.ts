import path from 'node:path';
import { harnessHome } from '../run/harness-home.js';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverCodex } from './discover.js';
import { incrementalCodex, mapCodex } from './map-codex.js';
import { peekCodex } from './peek.js';

export const codexImporter: HarnessImporter = {
  harness: 'codex',
  // `CODEX_HOME` moves the whole `~/.codex` folder.
  defaultDir: (home) => path.join(harnessHome('codex', { userHome: home }), 'sessions'),
  discover: discoverCodex,
  peek: peekCodex,
  map: mapCodex,
  incremental: incrementalCodex,
};
