/**
 * npm run bench:cli
 *
 * Start-up of the installed `strand` command (`bin/strand.js`, the bundle built by `prepare`):
 * the median of N runs of `strand --help` against a bare `node -e 0` in the same run, interleaved
 * so both see the same machine load, and of `strand list` over the demo corpus. The target is
 * `strand --help` within 6× `node -e 0`; missing it exits 1. Last line: `{helpMs, nodeMs, listMs}`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { line, median, round } from './bench-util.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '..', 'packages', 'cli', 'bin', 'strand.js');
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 15);
const HELP_TARGET = 6;

/** Wall time of one child process, which must succeed. */
function timed(args: readonly string[]): number {
  const start = performance.now();
  const child = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - start;
  if (child.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${child.stderr.toString()}`);
  return ms;
}

// Measure what the sources build to now, as an install would have built it.
execFileSync(process.execPath, [path.join(here, '..', 'packages', 'cli', 'scripts', 'bundle.mjs')]);
const data = mkdtempSync(path.join(tmpdir(), 'strand-bench-cli-'));
try {
  execFileSync(process.execPath, [BIN, 'demo', '--data', data, '--json']);
  // One warm-up each: the first run reads the files from disk, the rest from the page cache.
  timed(['-e', '0']);
  timed([BIN, '--help']);
  timed([BIN, 'list', '--data', data]);
  const node: number[] = [];
  const help: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    node.push(timed(['-e', '0']));
    help.push(timed([BIN, '--help']));
    list.push(timed([BIN, 'list', '--data', data]));
  }
  const result = {
    helpMs: round(median(help), 1),
    nodeMs: round(median(node), 1),
    listMs: round(median(list), 1),
  };
  console.log(`strand start-up, median of ${RUNS} runs each (interleaved):`);
  line('node -e 0', `${result.nodeMs} ms`);
  line('strand --help', `${result.helpMs} ms (${round(result.helpMs / result.nodeMs, 2)}× node)`);
  line('strand list (demo corpus, embedded host)', `${result.listMs} ms`);
  if (result.helpMs > HELP_TARGET * result.nodeMs) {
    console.log(`  strand --help is past the target of ${HELP_TARGET}× node -e 0`);
    process.exitCode = 1;
  }
  console.log(JSON.stringify(result));
} finally {
  rmSync(data, { recursive: true, force: true });
}
