/**
 * `npx tsx scripts/kilo-fixtures.ts [scenario…]`: re-records the Kilo Code CLI fixtures
 * (`packages/import/src/kilo/fixtures/<scenario>.json`) with the pinned kilo through the harness
 * bed (`npm run bed:install` first), as `scripts/opencode-fixtures.ts` does for opencode: each
 * scenario runs offline and its `kilo.db`'s `session`, `message` and `part` rows are dumped as the
 * harness wrote them. Run prettier on the folder afterwards. One scenario at a time.
 */
import path from 'node:path';
import { installedHarness, kiloScenarios, pinOf, runScenario } from '@strand/harness-bed';
import { dumpOpencodeDb, writeDump } from '../packages/import/src/testing/opencode-db.js';

const installed = installedHarness(pinOf('kilo'));
if (installed === undefined) throw new Error('kilo is not installed: run npm run bed:install');
const wanted = process.argv.slice(2);
const out = path.resolve('packages/import/src/kilo/fixtures');
for (const scenario of kiloScenarios.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
  const recording = await runScenario(installed, scenario);
  try {
    writeDump(
      dumpOpencodeDb(path.join(recording.transcriptRoot, 'kilo.db'), scenario.name, 'kilo'),
      path.join(out, `${scenario.name}.json`),
    );
    console.log(`${scenario.name}: ${recording.sessionId}`);
  } finally {
    await recording.workspace.remove();
  }
}
