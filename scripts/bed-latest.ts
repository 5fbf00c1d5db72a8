/**
 * `npm run bed:latest` (for maintainers; not in CI): installs the newest published version of each
 * bed harness into a scratch folder, runs every scenario with it and with the pinned version, and
 * prints what the newer one writes that the pinned one did not — record kinds and fields never
 * seen (packages/harness-bed/src/drift.ts) — and what `strand import` calls unknown in its
 * transcripts. Format drift is found the day a harness releases, before a pin is raised.
 * Options: `--harness <name>` (repeatable; default all).
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  addShapes,
  bedRoot,
  claudeScenarios,
  codexScenarios,
  drift,
  filesUnder,
  geminiScenarios,
  piScenarios,
  opencodeScenarios,
  qwenScenarios,
  copilotScenarios,
  kiloScenarios,
  clineScenarios,
  installHarness,
  installedVersion,
  PINS,
  runScenario,
  type BedHarness,
  type BedRecording,
  type ScenarioDefinition,
  type Shapes,
} from '@strand/harness-bed';
import { importTranscripts } from '@strand/import';

const SCENARIOS: Record<BedHarness, readonly ScenarioDefinition[]> = {
  'claude-code': claudeScenarios,
  codex: codexScenarios,
  gemini: geminiScenarios,
  pi: piScenarios,
  opencode: opencodeScenarios,
  qwen: qwenScenarios,
  copilot: copilotScenarios,
  kilo: kiloScenarios,
  cline: clineScenarios,
};

const args = process.argv.slice(2);
const only = args.flatMap((a, i) => (a === '--harness' ? [args[i + 1] ?? ''] : []));
const scratch = await mkdtemp(path.join(os.tmpdir(), 'strand-bed-latest-'));
let drifted = 0;
try {
  for (const pin of PINS) {
    if (only.length > 0 && !only.includes(pin.harness)) continue;
    const pinned = await installHarness(pin, bedRoot());
    const latest = await installHarness({ ...pin, version: 'latest' }, scratch);
    const version = await installedVersion(latest);
    console.log(`${pin.harness}: pinned ${pin.version}, latest ${version}`);
    if (version === pin.version) {
      // Two runs of one version differ only by timing (which rows a resume rewrites): no drift.
      console.log('  the pinned version is the newest');
      continue;
    }
    const known: Shapes = new Map();
    const newer: Shapes = new Map();
    const unknown = new Set<string>();
    for (const scenario of SCENARIOS[pin.harness]) {
      for (const [installed, shapes] of [
        [pinned, known],
        [latest, newer],
      ] as const) {
        let recording: BedRecording;
        try {
          recording = await runScenario(installed, scenario);
        } catch (error) {
          console.log(
            `  ${scenario.name} with ${installed === latest ? version : pin.version}: ${(error as Error).message.split('\n')[0]}`,
          );
          if (installed === latest) drifted++;
          continue;
        }
        for (const file of await filesUnder(recording.transcriptRoot))
          if (/\.jsonl?$/.test(file))
            addShapes(await readFile(path.join(recording.transcriptRoot, file), 'utf8'), shapes);
        if (installed === latest) {
          const data = path.join(scratch, `data-${pin.harness}-${scenario.name}`);
          const summary = await importTranscripts({
            harness: pin.harness,
            sourceDir: recording.transcriptRoot,
            dataDir: data,
          });
          for (const report of summary.reports)
            if (report.kind === 'skipped-record' || report.kind === 'failed') unknown.add(report.reason);
        }
        await recording.workspace.remove();
      }
    }
    const lines = [...drift(known, newer), ...[...unknown].map((u) => `strand import: ${u}`)];
    drifted += lines.length;
    for (const line of lines) console.log(`  ${line}`);
    if (lines.length === 0) console.log('  nothing new');
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
console.log(drifted === 0 ? 'bed:latest: no drift' : `bed:latest: ${drifted} findings`);
