import path from 'node:path';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverCodex } from './discover.js';
import { incrementalCodex, mapCodex } from './map-codex.js';
import { peekCodex } from './peek.js';

export const codexImporter: HarnessImporter = {
  harness: 'codex',
  defaultDir: (home) => path.join(home, '.codex', 'sessions'),
  discover: discoverCodex,
  peek: peekCodex,
  map: mapCodex,
  incremental: incrementalCodex,
};
