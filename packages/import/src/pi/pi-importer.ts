import path from 'node:path';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverPi } from './discover.js';
import { foldPi, mapPi } from './map-pi.js';
import { peekPi } from './peek.js';

/**
 * pi (`@mariozechner/pi-coding-agent`). Its folder is `$PI_CODING_AGENT_DIR/sessions` when that
 * variable is set; the default here is the one a user without it has (`strand import pi <dir>`
 * names another).
 */
export const piImporter: HarnessImporter = {
  harness: 'pi',
  defaultDir: (home) => path.join(home, '.pi', 'agent', 'sessions'),
  discover: discoverPi,
  peek: peekPi,
  map: mapPi,
  incremental: (unit, peek) => Promise.resolve(foldPi(unit, peek)),
};
