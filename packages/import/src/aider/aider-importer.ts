import type { HarnessImporter } from '../run/harness-importer.js';
import { aiderUnitOf, discoverAider } from './discover.js';
import { incrementalAider, mapAider } from './map-aider.js';
import { peekAider } from './peek.js';

export const aiderImporter: HarnessImporter = {
  harness: 'aider',
  // Aider keeps a history per project (`<git root>/.aider.chat.history.md`): there is no per-user
  // folder to default to, so the folder must be named.
  defaultDir: () => undefined,
  discover: discoverAider,
  unitOf: aiderUnitOf,
  peek: peekAider,
  map: mapAider,
  incremental: incrementalAider,
};
