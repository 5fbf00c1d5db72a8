import path from 'node:path';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverOpenhands } from './discover.js';
import { mapOpenhands } from './map-openhands.js';
import { peekOpenhands } from './peek.js';

export const openhandsImporter: HarnessImporter = {
  harness: 'openhands',
  // `file_store_path` defaults to `~/.openhands` (`openhands_config.py`); conversations are under
  // `sessions/` there (`CONVERSATION_BASE_DIR` in `openhands/storage/locations.py`).
  defaultDir: (home) => path.join(home, '.openhands', 'sessions'),
  discover: discoverOpenhands,
  peek: peekOpenhands,
  map: mapOpenhands,
  // A conversation is a folder of event files: read whole on every change, and writePlan appends
  // the events past what is stored.
  incremental: () => Promise.resolve(undefined),
  // A new event is a new file, a companion of the conversation's first event file.
  companionChangesUnit: true,
};
