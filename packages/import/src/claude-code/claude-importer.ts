import path from 'node:path';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverClaude } from './discover.js';
import { foldClaude, mapClaude } from './map-claude.js';
import { peekClaude } from './peek.js';

export const claudeCodeImporter: HarnessImporter = {
  harness: 'claude-code',
  defaultDir: (home) => path.join(home, '.claude', 'projects'),
  discover: discoverClaude,
  peek: peekClaude,
  map: mapClaude,
  incremental: (unit, peek) => Promise.resolve(foldClaude(unit, peek)),
};
