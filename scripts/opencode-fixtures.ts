/**
 * `npx tsx scripts/opencode-fixtures.ts [scenario…]`: re-records the opencode fixtures
 * (`packages/import/src/opencode/fixtures/<scenario>.json`) with the pinned opencode through the
 * harness bed (`npm run bed:install` first): each scenario runs offline and its database's
 * `session`, `message` and `part` rows are dumped as the harness wrote them. Run prettier on the
 * folder afterwards. One scenario at a time: each is a real CLI.
 */
import path from 'node:path';
import { installedHarness, opencodeScenarios, pinOf, runScenario } from '@strand/harness-bed';
import { dumpOpencodeDb, writeDump } from '../packages/import/src/testing/opencode-db.js';

const installed = installedHarness(pinOf('opencode'));
if (installed === undefined) throw new Error('opencode is not installed: run npm run bed:install');
const wanted = process.argv.slice(2);
const out = path.resolve('packages/import/src/opencode/fixtures');
for (const scenario of opencodeScenarios.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
  const recording = await runScenario(installed, scenario);
  try {
    writeDump(
      dumpOpencodeDb(path.join(recording.transcriptRoot, 'opencode.db'), scenario.name),
      path.join(out, `${scenario.name}.json`),
    );
    console.log(`${scenario.name}: ${recording.sessionId}`);
  } finally {
    await recording.workspace.remove();
  }
}
