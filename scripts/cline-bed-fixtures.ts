/**
 * `npx tsx scripts/cline-bed-fixtures.ts [scenario…]`: runs the pinned Cline CLI through the bed's
 * scenarios (all, or those named) and copies each run's `~/.cline/data/sessions` folder, as written, to
 * `packages/import/src/cline/fixtures/bed/<scenario>/` (the bed's home is scratch: nothing secret).
 * Needs the pin installed (`npm run bed:install`).
 */
import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { bedHarness, runScenario, clineScenarios } from '@strand/harness-bed';
const bed = bedHarness('cline');
if (bed.kind === 'missing') throw new Error(bed.reason);
const out = path.resolve('packages/import/src/cline/fixtures/bed');
const only = process.argv.slice(2);
for (const def of clineScenarios) {
  if (only.length > 0 && !only.includes(def.name)) continue;
  const rec = await runScenario(bed.installed, def);
  // The transcript root is `sessions/`: keep that folder name, as the CLI lays it out.
  const dest = path.join(out, def.name, 'sessions');
  await rm(dest, { recursive: true, force: true });
  await mkdir(dest, { recursive: true });
  await cp(rec.transcriptRoot, dest, { recursive: true });
  console.log(def.name, rec.sessionId);
  await rec.workspace.remove();
}
