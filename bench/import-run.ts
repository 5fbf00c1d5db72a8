/**
 * `bench:import`'s measured imports, in a process of their own (built into the CLI bundle beside it
 * by `bundleCli`, see import.bench.ts): the one-shot import exactly as `strand import` runs it —
 * worker lanes from the bundle, the projection cache rows included — without the process start-up
 * a re-import would otherwise be mostly made of.
 *
 * A process of its own, started with plain `node`, because that is what a person runs: a worker
 * lane inherits its parent's `execArgv`, so inside the bench (run by tsx) every worker also loaded
 * tsx and sent each module it loaded through tsx's hooks; and the bench's heap still held what
 * generating the corpus left behind. Both cost the measured import CPU that `strand import` never
 * spends (~0.3 s of ~4.3 on the aider corpus).
 *
 * argv[2]: the import's options as JSON. Imports twice — the first import, then a re-import with
 * nothing changed, warm in the same process — and prints one JSON line: for each, its wall time,
 * the CPU time of every thread (worker lanes included), the summary's counts and first reports,
 * and the first cache rows that could not be written.
 */
import type { ImportOptions } from '@strand/import';
import { importOnce } from '../packages/cli/src/commands/import.js';

/** One measured import, as `import.bench.ts` reads it. */
export interface MeasuredImport {
  readonly ms: number;
  readonly cpuSeconds: number;
  readonly imported: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly failed: number;
  readonly reports: readonly unknown[];
  readonly rowProblems: readonly unknown[];
}

const options = JSON.parse(process.argv[2] ?? '') as ImportOptions;
const runs: MeasuredImport[] = [];
for (let i = 0; i < 2; i++) {
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const { summary, rows } = await importOnce(options);
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  runs.push({
    ms,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    imported: summary.imported,
    updated: summary.updated,
    unchanged: summary.unchanged,
    failed: summary.failed,
    reports: summary.reports.slice(0, 5),
    rowProblems: rows.problems.slice(0, 5),
  });
}
process.stdout.write(`${JSON.stringify(runs)}\n`);
