/**
 * npm run bench:ingest [-- --mb=200 --appends=200 --rounds=4]
 *
 * Live ingest (`strand serve --watch`), measured in one process over a real data folder, a real
 * host and a real WebSocket follower:
 * - `appendToFollowerP50Ms` / `appendToFollowerP99Ms`: one line appended to a watched Codex
 *   rollout until the follower receives the event it maps to (targets p50 ≤ 250 ms, p99 ≤ 1,000 ms);
 * - `catchUpMBps`: catching up a backlog of `--mb` MB of rollouts at start as `serve --watch`
 *   does — the folder watched, then the import alone, then the runtime opened and live ingest
 *   ready — against `oneShotImportMBps`, the one-shot import's work as `strand import` does it on
 *   the same backlog in this run (the import, then the cache rows of the sessions it wrote; target
 *   catch-up ≥ one-shot). A serving host writes those rows after it is caught up, in the
 *   background (printed: how long after). `catchUpImportPhaseMBps` is the import inside the
 *   catch-up alone, the library import's rate. Medians of `--rounds` runs each, alternating in
 *   order, each after `--rest-ms` of rest.
 * - `realHarnessAppendToFollowerP99Ms` (target ≤ 1,000): the real Claude Code of the harness bed
 *   (`npm run bed:install`) writes its transcript under a watched folder, `--real-prompts`
 *   prompts, each a `claude -p --resume` against the bed's scripted endpoint; from the moment the
 *   prompt's line is in the file (a 2 ms poll of the file, run beside) until the follower has the
 *   `user/message`. `null`, saying why, without the bed.
 * The corpus is deterministic. The last line is one JSON object with every figure.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startHost } from '@strand/host';
import { importTranscripts, startLiveIngest } from '@strand/import';
import type { FollowSnapshot, WireEvent } from '@strand/protocol';
import { openStrandRuntime } from '@strand/runtime';
import { RpcTestClient } from '@strand/runtime/testing';
import { codexRollout } from '@strand/import/testing/synthetic';
import { fillCacheRows } from '../packages/cli/src/commands/catch-up-rows.js';
import { changedSessions, importOnce } from '../packages/cli/src/commands/import.js';
import { line, median, round, timeIt } from './bench-util.js';
import { realHarnessLatencies } from './real-harness-ingest.js';

const arg = (name: string, fallback: number): number =>
  Number(
    new RegExp(`^--${name}=(\\d+)$`).exec(process.argv.find((a) => a.startsWith(`--${name}=`)) ?? '')?.[1] ??
      fallback,
  );
const targetMB = arg('mb', 200);
const appends = arg('appends', 200);
// An even count: the orders alternate (ABBA), so a drift of the machine during the run weighs on
// both sides alike.
const restMs = arg('rest-ms', 5_000);
const rounds = 2 * Math.max(1, Math.ceil(arg('rounds', 4) / 2));
const realPrompts = arg('real-prompts', 20);

const uuid = (n: number): string => `01d00000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;

/** A backlog of rollouts under `YYYY/MM/DD/`, about `bytes` in all; returns its size. */
function backlog(root: string, bytes: number): number {
  let written = 0;
  for (let n = 1; written < bytes; n++) {
    const dir = path.join(root, '2026', '02', String(1 + (n % 28)).padStart(2, '0'));
    mkdirSync(dir, { recursive: true });
    const text = codexRollout({ id: uuid(n), turns: 40, outputChars: 4_000 });
    writeFileSync(path.join(dir, `rollout-2026-02-10T09-00-00-${uuid(n)}.jsonl`), text);
    written += Buffer.byteLength(text);
  }
  return written;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const work = mkdtempSync(path.join(tmpdir(), 'strand-bench-ingest-'));
try {
  console.log(`ingest benchmark (Codex rollouts: ${targetMB} MB backlog, ${appends} appends)`);
  const source = path.join(work, 'sessions');
  const bytes = backlog(source, targetMB * 1e6);
  line('backlog', `${round(bytes / 1e6, 1)} MB`);

  // The one-shot import of the same backlog (`strand import`) and the catch-up, measured in this
  // run on this corpus, in alternating order (one-shot first in odd rounds, catch-up first in even
  // ones) after one unmeasured warm-up import. Every run starts from the same state: a fresh data
  // folder, the disk settled (`sync`) and the heap collected, so neither side pays for what the
  // run before left behind (a closed runtime's garbage, the writeback of a deleted folder) or
  // enjoys a cold start the other paid. The rates are the medians.
  const settle = async (): Promise<void> => {
    execFileSync('sync');
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, restMs));
  };
  let folders = 0;
  const freshFolder = (): string => path.join(work, `data-${folders++}`);
  const oneShotRun = async (): Promise<number> => {
    const folder = freshFolder();
    await settle();
    const run = await timeIt(() => importOnce({ harness: 'codex', sourceDir: source, dataDir: folder }));
    rmSync(folder, { recursive: true, force: true });
    return run.ms;
  };
  /**
   * Catch-up as `serve --watch` runs it: the one-shot import while the folder is being watched,
   * then the runtime opening the data folder while the files are compared with the ledger, then
   * live ingest ready. Also returns where the time went.
   */
  const startServing = async (data: string) => {
    const marks: number[] = [performance.now()];
    let opened: Awaited<ReturnType<typeof openStrandRuntime>> | undefined;
    const caughtUp: string[] = [];
    const ingest = startLiveIngest({
      watches: [{ harness: 'codex', dir: source }],
      dataDir: data,
      catchUp: async () => {
        marks.push(performance.now());
        caughtUp.push(
          ...changedSessions(await importTranscripts({ harness: 'codex', sourceDir: source, dataDir: data })),
        );
        marks.push(performance.now());
      },
      target: async () => {
        opened = await openStrandRuntime({ dataDir: data });
        marks.push(performance.now());
        return opened.services;
      },
    });
    await ingest.ready;
    marks.push(performance.now());
    const [t0, watched, imported, openedAt, readyAt] = marks as [number, number, number, number, number];
    return {
      runtime: opened!,
      ingest,
      caughtUp,
      ms: readyAt - t0,
      split: [watched - t0, imported - watched, openedAt - imported, readyAt - openedAt],
    };
  };
  const catchUpRun = async (data: string) => {
    await settle();
    const served = await startServing(data);
    // Caught up, the host derives in the background what the one-shot import wrote before it
    // returned (cache rows) and the search index: let both finish before closing, as a host would.
    const fill = fillCacheRows(served.runtime.services.query, served.caughtUp, (id, error) => {
      throw new Error(`cache rows of ${id}: ${String(error)}`);
    });
    const rowsAfterMs = (await timeIt(() => fill.done)).ms;
    await served.runtime.searchReady;
    await served.ingest.close();
    await served.runtime.close();
    return { ...served, rowsAfterMs };
  };

  if (globalThis.gc === undefined) console.log('  (run with --expose-gc to collect the heap between runs)');
  await oneShotRun(); // warm-up, not measured
  const oneShots: number[] = [];
  const catchUps: number[] = [];
  const importPhases: number[] = [];
  let kept: string | undefined;
  for (let r = 1; r <= rounds; r++) {
    const order = r % 2 === 1 ? (['one-shot', 'catch-up'] as const) : (['catch-up', 'one-shot'] as const);
    for (const kind of order) {
      if (kind === 'one-shot') {
        const ms = await oneShotRun();
        oneShots.push(ms);
        line(`round ${r}: one-shot import`, `${round(ms / 1000, 2)} s`);
      } else {
        if (kept !== undefined) rmSync(kept, { recursive: true, force: true });
        kept = freshFolder();
        const run = await catchUpRun(kept);
        catchUps.push(run.ms);
        importPhases.push(run.split[1]!);
        const [watched, imported, opened, ready] = run.split.map((ms) => round(ms, 0)) as [
          number,
          number,
          number,
          number,
        ];
        line(
          `round ${r}: catch-up (watch / import / open / ready)`,
          `${round(run.ms / 1000, 2)} s (${watched} / ${imported} / ${opened} / ${ready} ms); rows ${round(run.rowsAfterMs / 1000, 2)} s after`,
        );
      }
    }
  }
  const oneShotMBps = bytes / 1e6 / (median(oneShots) / 1000);
  const catchUpMBps = bytes / 1e6 / (median(catchUps) / 1000);
  const importPhaseMBps = bytes / 1e6 / (median(importPhases) / 1000);
  // Each round's pair ran back to back, so its ratio is the least disturbed by the machine's drift.
  const pairRatios = oneShots.map((ms, i) => ms / catchUps[i]!);
  line('catch-up ÷ one-shot rate, per round', pairRatios.map((x) => round(x, 3)).join(', '));
  line('  median of the rounds', `${round(median(pairRatios), 3)}×`);
  line('one-shot import (median)', `${round(median(oneShots) / 1000, 2)} s, ${round(oneShotMBps, 1)} MB/s`);
  line(
    'catch-up (median)',
    `${round(median(catchUps) / 1000, 2)} s, ${round(catchUpMBps, 1)} MB/s (${round(catchUpMBps / oneShotMBps, 3)}× one-shot)`,
  );
  line(
    '  its import phase alone (median)',
    `${round(median(importPhases) / 1000, 2)} s, ${round(importPhaseMBps, 1)} MB/s (catch-up: ${round(catchUpMBps / importPhaseMBps, 3)}× of it)`,
  );

  // Live appends, on the folder the last catch-up filled: `serve --watch` restarted over it (its
  // catch-up finds every file unchanged), a host and a follower.
  const { runtime, ingest } = await startServing(kept!);
  const host = await startHost({ services: runtime.services, port: 0 });
  const client = await RpcTestClient.open(host.rpcUrl);
  const liveId = uuid(0);
  const liveFile = path.join(source, '2026', '03', '01', `rollout-2026-03-01T09-00-00-${liveId}.jsonl`);
  mkdirSync(path.dirname(liveFile), { recursive: true });
  // A rollout with one turn, still open: each appended assistant line is one new event.
  const opening = codexRollout({ id: liveId, turns: 1 }).split('\n').slice(0, 5).join('\n') + '\n';
  writeFileSync(liveFile, opening);
  await new Promise<void>((resolve) => {
    const poll = (): void => {
      void runtime.services.persistence
        .revisionOf(`codex-${liveId}` as never)
        .then((r) => (r === undefined ? setTimeout(poll, 10) : resolve()));
    };
    poll();
  });
  const snapshot = await client.call<FollowSnapshot>('session.follow', { id: `codex-${liveId}` });
  const latencies: number[] = [];
  for (let i = 0; i < appends; i++) {
    const text = `live answer ${i}`;
    const arrived = client.waitFor(
      (m) =>
        m.method === 'follow.events' &&
        (m.params as { followId: string; events: WireEvent[] }).followId === snapshot.followId &&
        (m.params as { events: WireEvent[] }).events.some((e) =>
          JSON.stringify(e.data).includes(`"${text}"`),
        ),
      10_000,
    );
    const started = performance.now();
    appendFileSync(
      liveFile,
      JSON.stringify({
        timestamp: new Date(Date.parse('2026-03-01T09:00:10.000Z') + i * 1000).toISOString(),
        type: 'response_item',
        payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
      }) + '\n',
    );
    await arrived;
    latencies.push(performance.now() - started);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  line('append → follower p50', `${round(p50, 1)} ms (target ≤ 250)`);
  line('append → follower p99', `${round(p99, 1)} ms (target ≤ 1,000)`);

  client.close();
  await ingest.close();
  await host.close();
  await runtime.close();

  const real = await realHarnessLatencies(path.join(work, 'real'), realPrompts);
  let realP99: number | null = null;
  if (real.kind === 'skipped') line('real harness: prompt → follower', `skipped (${real.reason})`);
  else {
    const sortedReal = [...real.latencies].sort((a, b) => a - b);
    realP99 = percentile(sortedReal, 99);
    line(
      `real harness (${real.version}): prompt → follower, ${sortedReal.length} prompts`,
      `p50 ${round(percentile(sortedReal, 50), 1)} ms, p99 ${round(realP99, 1)} ms (target ≤ 1,000)`,
    );
  }
  console.log(
    JSON.stringify({
      backlogMB: round(bytes / 1e6, 1),
      catchUpMBps: round(catchUpMBps, 1),
      oneShotImportMBps: round(oneShotMBps, 1),
      catchUpImportPhaseMBps: round(importPhaseMBps, 1),
      appends,
      appendToFollowerP50Ms: round(p50, 1),
      appendToFollowerP99Ms: round(p99, 1),
      realHarnessAppendToFollowerP99Ms: realP99 === null ? null : round(realP99, 1),
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
