import path from 'node:path';
import { envDir } from '../run/env-dir.js';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverClaude } from './discover.js';
import { foldClaude, mapClaude } from './map-claude.js';
import { peekClaude } from './peek.js';

export const claudeCodeImporter: HarnessImporter = {
  harness: 'claude-code',
  // `CLAUDE_CONFIG_DIR` moves the whole `~/.claude` folder.
  defaultDir: (home) => path.join(envDir('CLAUDE_CONFIG_DIR') ?? path.join(home, '.claude'), 'projects'),
  discover: discoverClaude,
  peek: peekClaude,
  map: mapClaude,
  incremental: (unit, peek) => Promise.resolve(foldClaude(unit, peek)),
};
