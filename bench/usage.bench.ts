/**
 * npm run bench:usage [-- --sessions=10000] [--keep=<dir>]
 *
 * `usage.summary {by: day}` over 10,000 sessions imported from generated Claude Code transcripts,
 * asked of a running host over its WebSocket — what `strand usage --by day` does beside a host —
 * cold (the first call observes each session once and writes its cache row) and warm (every
 * figure from the list index's usage hours, one query: no log body read). Then the same daily report from ccusage
 * (`CCUSAGE`, installed on first use into ~/.cache/strand/ccusage: it ships its native binary for
 * a few platforms only, so it cannot sit in the lock file every platform installs) over the same files, which re-parses every file on each run; its
 * token totals are compared with Strand's. `--keep=<dir>` writes the corpus there and keeps it (a
 * later run with the same `--keep` reuses it). Last line: one JSON object.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { StrandConnection } from '@strand/client';
import { startHost, usageSummary } from '@strand/host';
import { importTranscripts } from '@strand/import';
import { openStrandRuntime } from '@strand/runtime';
import { mulberry32, type Rng } from '@strand/workload';
import { line, median, round, timeIt } from './bench-util.js';
import { hex, uuid } from './corpus-text.js';

const SESSIONS = Number(
  /^--sessions=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--sessions=')) ?? '')?.[1] ?? 10_000,
);
const DAY_MS = 86_400_000;
/** The ccusage the comparison runs, pinned. */
const CCUSAGE = 'ccusage@20.0.24';

/** ccusage's CLI, installed once per version under the user's cache folder. */
function installCcusage(): string {
  const prefix = path.join(homedir(), '.cache', 'strand', CCUSAGE);
  const cli = path.join(prefix, 'node_modules', 'ccusage', 'src', 'cli.js');
  if (!existsSync(cli)) {
    console.log(`installing ${CCUSAGE} into ${prefix} …`);
    execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', CCUSAGE], {
      stdio: 'inherit',
    });
  }
  return cli;
}
const START = Date.UTC(2026, 9, 1);

/**
 * Small sessions as Claude Code 2.x writes them: a prompt, then responses whose content blocks
 * are lines of their own repeating the response's `message.id`, `requestId` and usage.
 */
function generate(root: string, rng: Rng): void {
  for (let s = 0; s < SESSIONS; s++) {
    const project = `-home-user-project-${s % 40}`;
    const dir = path.join(root, 'projects', project);
    if (s < 40) mkdirSync(dir, { recursive: true });
    const sessionId = uuid(rng);
    const base = { userType: 'external', cwd: `/home/user/project-${s % 40}`, sessionId, version: '2.1.88' };
    let time = START + Math.floor(rng() * 60 * DAY_MS);
    let parent: string | null = null;
    const lines: string[] = [];
    const push = (record: Record<string, unknown>) => {
      const id = uuid(rng);
      time += 1_000 + Math.floor(rng() * 20_000);
      lines.push(
        JSON.stringify({
          parentUuid: parent,
          isSidechain: false,
          ...base,
          ...record,
          uuid: id,
          timestamp: new Date(time).toISOString(),
        }),
      );
      parent = id;
    };
    push({ type: 'user', message: { role: 'user', content: 'Please look at the build.' } });
    const responses = 1 + Math.floor(rng() * 4);
    for (let r = 0; r < responses; r++) {
      const message = {
        id: `msg_${hex(rng, 24)}`,
        type: 'message',
        role: 'assistant',
        model: rng() < 0.8 ? 'claude-sonnet-4-5-20250929' : 'claude-haiku-4-5-20251001',
        stop_reason: null,
      };
      const usage = {
        input_tokens: 3 + Math.floor(rng() * 50),
        cache_creation_input_tokens: Math.floor(rng() * 3_000),
        cache_read_input_tokens: Math.floor(rng() * 60_000),
        output_tokens: 1 + Math.floor(rng() * 600),
      };
      const requestId = `req_${hex(rng, 24)}`;
      push({
        type: 'assistant',
        requestId,
        message: { ...message, content: [{ type: 'text', text: 'Looking.' }], usage },
      });
      push({
        type: 'assistant',
        requestId,
        message: { ...message, content: [{ type: 'text', text: 'Done.' }], usage },
      });
    }
    writeFileSync(path.join(dir, `${sessionId}.jsonl`), lines.join('\n') + '\n');
  }
}

interface Totals {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}
const tokensOf = (t: Totals) => [t.inputTokens, t.outputTokens, t.cacheCreationTokens, t.cacheReadTokens];

const keep = /^--keep=(.+)$/.exec(process.argv.find((a) => a.startsWith('--keep=')) ?? '')?.[1];
const work = keep ?? mkdtempSync(path.join(tmpdir(), 'strand-bench-usage-'));
try {
  const claude = path.join(work, 'claude');
  const data = path.join(work, 'data');
  console.log(`usage benchmark (${SESSIONS} Claude Code sessions)`);
  if (!existsSync(data)) {
    const gen = await timeIt(() => generate(claude, mulberry32(20_261_204)));
    line('transcripts generated', `${round(gen.ms / 1000, 1)} s`);
    const imported = await timeIt(() =>
      importTranscripts({ harness: 'claude-code', sourceDir: path.join(claude, 'projects'), dataDir: data }),
    );
    if (imported.value.imported !== SESSIONS)
      throw new Error(`imported ${imported.value.imported} of ${SESSIONS}`);
    line('imported', `${round(imported.ms / 1000, 1)} s`);
  }

  const runtime = await openStrandRuntime({ dataDir: data });
  const host = await startHost({ services: runtime.services, port: 0 });
  const connection = new StrandConnection({ url: host.rpcUrl, WebSocket });
  try {
    await runtime.searchReady;
    const ask = () => connection.call('usage.summary', { by: 'day', timeZone: 'UTC' });
    const cold = await timeIt(ask);
    line('usage.summary by day, cold (fills the cache rows)', `${round(cold.ms)} ms`);
    const warmTimes: number[] = [];
    let summary = cold.value;
    for (let i = 0; i < 7; i++) {
      const run = await timeIt(ask);
      warmTimes.push(run.ms);
      summary = run.value;
    }
    const usageByDayMs10k = median(warmTimes);
    line('usage.summary by day, warm (median of 7)', `${round(usageByDayMs10k)} ms (target ≤ 300)`);
    const inProcess = await timeIt(() =>
      usageSummary(runtime.services, { by: 'day', timeZone: 'UTC' }, new AbortController().signal),
    );
    const usageBodyReads = inProcess.value.bodyReads;
    line('  of which the host method, in process', `${round(inProcess.ms)} ms`);
    line('  log body reads of a warm summary', `${usageBodyReads} (target 0)`);
    line('  rows, sessions', `${summary.rows.length} days, ${summary.totals.sessions} sessions`);

    const ccusageBin = installCcusage();
    const ccusage = (): { totals: Totals } =>
      JSON.parse(
        execFileSync(process.execPath, [ccusageBin, 'daily', '--json', '--offline', '--timezone', 'UTC'], {
          env: { ...process.env, CLAUDE_CONFIG_DIR: claude, NO_COLOR: '1' },
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        }),
      ) as { totals: Totals };
    const ccTimes: number[] = [];
    let cc: { totals: Totals } | undefined;
    for (let i = 0; i < 3; i++) {
      const run = await timeIt(ccusage);
      ccTimes.push(run.ms);
      cc = run.value;
    }
    const ccusageMs = median(ccTimes);
    line('ccusage daily --json --offline (median of 3)', `${round(ccusageMs)} ms`);
    const agree = JSON.stringify(tokensOf(cc!.totals)) === JSON.stringify(tokensOf(summary.totals));
    line(
      '  token totals agree with Strand (in, out, cache write, cache read)',
      agree
        ? 'yes'
        : `no: ccusage ${tokensOf(cc!.totals).join('/')} vs Strand ${tokensOf(summary.totals).join('/')}`,
    );
    line('  ratio ccusage / Strand warm', `${round(ccusageMs / usageByDayMs10k, 1)}×`);
    console.log(
      JSON.stringify({
        sessions: SESSIONS,
        usageByDayMs10k: round(usageByDayMs10k),
        usageColdMs10k: round(cold.ms),
        usageBodyReads,
        ccusageMs: round(ccusageMs),
        totalsAgree: agree,
      }),
    );
  } finally {
    connection.close();
    await host.close();
    await runtime.close();
  }
} finally {
  if (keep === undefined) rmSync(work, { recursive: true, force: true });
}
