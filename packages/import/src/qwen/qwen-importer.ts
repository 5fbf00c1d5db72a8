import path from 'node:path';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverQwen } from './discover.js';
import { foldQwen, mapQwen } from './map-qwen.js';
import { peekQwen } from './peek.js';

export const qwenImporter: HarnessImporter = {
  harness: 'qwen',
  defaultDir: (home) => path.join(home, '.qwen', 'projects'),
  discover: discoverQwen,
  peek: peekQwen,
  map: mapQwen,
  incremental: (unit, peek) => Promise.resolve(foldQwen(unit, peek)),
};
