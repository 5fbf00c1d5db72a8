import path from 'node:path';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverCopilot } from './discover.js';
import { foldCopilot, mapCopilot } from './map-copilot.js';
import { peekCopilot } from './peek.js';

export const copilotImporter: HarnessImporter = {
  harness: 'copilot',
  // `COPILOT_HOME` moves the whole `~/.copilot` folder (`copilot help environment`).
  defaultDir: (home) => {
    const named = process.env.COPILOT_HOME;
    return path.join(
      named !== undefined && named !== '' ? named : path.join(home, '.copilot'),
      'session-state',
    );
  },
  discover: discoverCopilot,
  peek: peekCopilot,
  map: mapCopilot,
  incremental: (unit, peek) => Promise.resolve(foldCopilot(unit, peek)),
};
