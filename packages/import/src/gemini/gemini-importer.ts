import path from 'node:path';
import { harnessHome } from '../run/harness-home.js';
import type { HarnessImporter } from '../run/harness-importer.js';
import { chatPlacementKey } from './chat-outline.js';
import { discoverGemini } from './discover.js';
import { incrementalGemini, mapGemini } from './map-gemini.js';
import { peekGemini } from './peek.js';

export const geminiImporter: HarnessImporter = {
  harness: 'gemini',
  // `GEMINI_CLI_HOME` stands for the home folder `.gemini` is in.
  defaultDir: (home) => path.join(harnessHome('gemini', { userHome: home }), 'tmp'),
  discover: discoverGemini,
  peek: peekGemini,
  map: mapGemini,
  incremental: incrementalGemini,
  // A nested chat becomes a child when the person's chat records its call, after it was written.
  placedByCompanions: true,
  // Its siblings are peeked again only when what places them changed (not on each streamed write).
  placementKey: chatPlacementKey,
};
