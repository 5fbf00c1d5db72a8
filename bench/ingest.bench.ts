/**
 * npm run bench:ingest [-- --mb=200 --appends=200]
 *
 * Live ingest (`strand serve --watch`), measured in one process over a real data folder, a real
 * host and a real WebSocket follower:
 * - `appendToFollowerP50Ms` / `appendToFollowerP99Ms`: one line appended to a watched Codex
 *   rollout until the follower receives the event it maps to (targets p50 ≤ 250 ms, p99 ≤ 1,000 ms);
 * - `catchUpMBps`: catching up a backlog of `--mb` MB of rollouts at start as `serve --watch`
 *   does — the one-shot import while the folder is being watched, the runtime opened, live ingest
 *   ready (target
 *   ≥ the one-shot import's rate; `oneShotImportMBps` is that rate on this same backlog, the mean
 *   of one import before the catch-up and one after, in this run).
 * The corpus is deterministic. The last line is one JSON object with every figure.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startHost } from '@strand/host';
import { importTranscripts, startLiveIngest } from '@strand/import';
import type { FollowSnapshot, WireEvent } from '@strand/protocol';
import { openStrandRuntime } from '@strand/runtime';
import { RpcTestClient } from '@strand/runtime/testing';
import { codexRollout } from '../packages/import/src/testing/synthetic.js';
import { line, round, timeIt } from './bench-util.js';

const arg = (name: string, fallback: number): number =>
  Number(
    new RegExp(`^--${name}=(\\d+)$`).exec(process.argv.find((a) => a.startsWith(`--${name}=`)) ?? '')?.[1] ??
      fallback,
  );
const targetMB = arg('mb', 200);
const appends = arg('appends', 200);

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
  const data = path.join(work, 'data');
  const bytes = backlog(source, targetMB * 1e6);
  line('backlog', `${round(bytes / 1e6, 1)} MB`);

  // The one-shot import of the same backlog (`strand import`), each into a folder of its own: the
  // rate catch-up is held to, measured on this corpus in this run rather than quoted from
  // bench:import — once before the catch-up and once after, so neither side alone pays the cold
  // start (JIT, first reads of the corpus) or enjoys the warm one; the mean is the rate.
  const oneShotRun = async (folder: string): Promise<number> => {
    const run = await timeIt(() =>
      importTranscripts({ harness: 'codex', sourceDir: source, dataDir: path.join(work, folder) }),
    );
    rmSync(path.join(work, folder), { recursive: true, force: true });
    return run.ms;
  };
  const oneShotBefore = await oneShotRun('one-shot-before');

  // Catch-up as `serve --watch` runs it: the one-shot import while the folder is being watched,
  // then the runtime opening the data folder while the files are compared with the ledger, then
  // live ingest ready. The marks say where the time goes.
  const marks: number[] = [];
  const catchUp = await timeIt(async () => {
    let opened: Awaited<ReturnType<typeof openStrandRuntime>> | undefined;
    marks.push(performance.now());
    const ingest = startLiveIngest({
      watches: [{ harness: 'codex', dir: source }],
      dataDir: data,
      catchUp: async () => {
        await importTranscripts({ harness: 'codex', sourceDir: source, dataDir: data });
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
    return { runtime: opened!, ingest };
  });
  const catchUpMBps = bytes / 1e6 / (catchUp.ms / 1000);
  // The runtime indexes the caught-up sessions for search in the background: let it finish, or
  // the second one-shot would share the cores with it.
  await catchUp.value.runtime.searchReady;
  const oneShotAfter = await oneShotRun('one-shot-after');
  const oneShotMs = (oneShotBefore + oneShotAfter) / 2;
  const oneShotMBps = bytes / 1e6 / (oneShotMs / 1000);
  line(
    'one-shot import of the backlog (mean of before and after)',
    `${round(oneShotMs / 1000, 2)} s, ${round(oneShotMBps, 1)} MB/s (${round(oneShotBefore / 1000, 2)} s, ${round(oneShotAfter / 1000, 2)} s)`,
  );
  const [t0, imported, openedAt, readyAt] = marks as [number, number, number, number];
  line(
    'catch-up: import / runtime open / ready after it',
    `${round(imported - t0, 0)} ms / ${round(openedAt - imported, 0)} ms / ${round(readyAt - openedAt, 0)} ms`,
  );
  line(
    'catch-up (import while watching, runtime open, ready)',
    `${round(catchUp.ms / 1000, 2)} s, ${round(catchUpMBps, 1)} MB/s (${round(catchUpMBps / oneShotMBps, 2)}× one-shot)`,
  );
  const { runtime, ingest } = catchUp.value;

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
  console.log(
    JSON.stringify({
      backlogMB: round(bytes / 1e6, 1),
      catchUpMBps: round(catchUpMBps, 1),
      oneShotImportMBps: round(oneShotMBps, 1),
      appends,
      appendToFollowerP50Ms: round(p50, 1),
      appendToFollowerP99Ms: round(p99, 1),
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
