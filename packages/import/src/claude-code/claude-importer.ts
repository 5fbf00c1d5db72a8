import path from 'node:path';
import { harnessHome } from '../run/harness-home.js';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverClaude } from './discover.js';
import { foldClaude, mapClaude } from './map-claude.js';
import { peekClaude } from './peek.js';

export const claudeCodeImporter: HarnessImporter = {
  harness: 'claude-code',
  // `CLAUDE_CONFIG_DIR` moves the whole `~/.claude` folder.
  defaultDir: (home) => path.join(harnessHome('claude-code', { userHome: home }), 'projects'),
  discover: discoverClaude,
  peek: peekClaude,
  map: mapClaude,
  incremental: (unit, peek) => Promise.resolve(foldClaude(unit, peek)),
};
