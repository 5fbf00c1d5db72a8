/**
 * `npx tsx scripts/copilot-bed-fixtures.ts [scenario…]`: runs the pinned GitHub Copilot CLI through
 * the bed's scenarios (all, or those named) and copies each run's `~/.copilot/session-state`
 * folder — each session's `events.jsonl` and `workspace.yaml`, as written — to
 * `packages/import/src/copilot/fixtures/bed/<scenario>/` (the bed's home is scratch: nothing
 * secret). Lock files, rewind snapshots and checkpoints are not transcripts and are left out.
 * Needs the pin installed (`npm run bed:install`).
 */
import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { bedHarness, runScenario, copilotScenarios } from '@strand/harness-bed';
const bed = bedHarness('copilot');
if (bed.kind === 'missing') throw new Error(bed.reason);
const out = path.resolve('packages/import/src/copilot/fixtures/bed');
const only = process.argv.slice(2);
for (const def of copilotScenarios) {
  if (only.length > 0 && !only.includes(def.name)) continue;
  const rec = await runScenario(bed.installed, def);
  const dest = path.join(out, def.name);
  await rm(dest, { recursive: true, force: true });
  for (const entry of await readdir(rec.transcriptRoot, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    await mkdir(path.join(dest, entry.name), { recursive: true });
    for (const file of ['events.jsonl', 'workspace.yaml'])
      await cp(path.join(rec.transcriptRoot, entry.name, file), path.join(dest, entry.name, file)).catch(
        () => undefined,
      );
  }
  console.log(def.name, rec.sessionId);
  await rec.workspace.remove();
}
