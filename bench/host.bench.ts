/**
 * npm run bench:host
 *
 * `session.list` over 10,000 cold sessions with cache hints (time, body reads), and follow
 * fan-out: 100 followers of one live session appending 1,000 events/s for 10 s, with one stalled
 * follower that must get `follow.resync` without slowing the others; a follow's opening under the
 * host token and under a share token (`share-follow-open.ts`). Last line: one JSON object.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { persistenceWriter } from '@strand/persistence';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { composeBaseStack, openFileStores } from '@strand/stack';
import { startHost } from '@strand/host';
import { CountingPersistence } from '@strand/test-support';
import { workloadTurns } from '@strand/workload';
import { line, median, round, timeIt } from './bench-util.js';
import { followOpenTimes } from './share-follow-open.js';
import { writeSmallSessions } from './small-sessions.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SESSIONS = Number(process.env.BENCH_HOST_SESSIONS ?? 10_000);
const FOLLOWERS = 100;
const DURATION_MS = 10_000;
const EVENTS_PER_SEC = 1_000;

const root = mkdtempSync(path.join(tmpdir(), 'strand-bench-host-'));
let peakRss = process.memoryUsage().rss;
const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
try {
  const registry = new ProjectionRegistry();
  for (const unit of BUILT_IN_UNITS) registry.register(unit);
  const stores = await openFileStores({ dataDir: root, backend: 'jsonl', registry });
  // The bench writes through the bare persistence; the host reads through the counting one.
  const base = stores.persistence;
  const counting = new CountingPersistence(base);
  const stack = composeBaseStack({ stores, registry, wrapPersistence: () => counting });
  // No checkpoint writes beside the measured listing and fan-out: the rows it lists it puts itself.
  stack.cacheWrites.dispose();
  const { persistence, preparations, store, cache, query } = stack;
  const reads = (): number => counting.bodyReads;

  console.log(`writing ${SESSIONS} one-turn sessions with cache rows …`);
  const { ms: fillMs } = await timeIt(() =>
    writeSmallSessions(base, SESSIONS, {
      titled: true,
      written: (session) =>
        cache.put(
          { header: session.header, incarnation: session.incarnation! },
          session.header.isSeeded ? session.inheritedEventCount : (0 as never),
          registry.foldAll(session.header, session.events).rows,
        ),
    }),
  );
  line('fill', `${round(fillMs / 1000, 1)} s`);

  const host = await startHost({ services: { persistence, preparations, store, registry, cache, query } });
  const ws = new WebSocket(host.rpcUrl);
  await new Promise((resolve) => ws.once('open', resolve));
  let nextId = 1;
  const call = (
    method: string,
    params: unknown,
  ): Promise<{ result?: { sessions?: { hints?: unknown }[] } }> =>
    new Promise((resolve) => {
      const id = nextId++;
      const onMessage = (data: Buffer): void => {
        const message = JSON.parse(data.toString('utf8')) as { id?: number };
        if (message.id === id) {
          ws.off('message', onMessage);
          resolve(message as never);
        }
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  const listTimes: number[] = [];
  let listReads = 0;
  for (let i = 0; i < 3; i++) {
    const before = reads();
    const { ms, value } = await timeIt(() => call('session.list', {}));
    listReads = reads() - before;
    const sessions = value.result?.sessions ?? [];
    if (sessions.length !== SESSIONS || sessions.some((s) => s.hints === undefined))
      throw new Error(
        `list did not return every session with hints: ${sessions.length} rows, e.g. ${JSON.stringify(sessions.find((s) => s.hints === undefined) ?? value).slice(0, 300)}`,
      );
    listTimes.push(ms);
  }
  const list10kMs = median(listTimes);
  line(
    `session.list over ${SESSIONS} cold sessions (cache hints)`,
    `${round(list10kMs)} ms, ${listReads} body reads`,
  );
  ws.close();

  const open = await followOpenTimes(
    { persistence, preparations, store, registry, cache, query },
    root,
    `s-${SESSIONS >> 1}`,
  );
  line(
    'follow opening: host token / share token (median)',
    `${round(open.followOpenMs)} ms / ${round(open.shareFollowOpenMs)} ms`,
  );

  // Fan-out: one live session appending 1,000 events/s.
  const liveId = SessionId('live-fanout');
  const header = newSessionHeader({ id: liveId });
  const { incarnation } = await base.create({ header });
  const live = new Session({ header, incarnation, writer: persistenceWriter(base, liveId) });
  await live.append({ type: 'session/title', data: { title: 'fan-out' } });
  store.attach(live);
  const clients = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(here, 'fanout-clients.ts'),
      host.rpcUrl,
      liveId,
      String(FOLLOWERS),
      String(DURATION_MS),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  clients.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve) => {
    const check = (): void => (output.includes('ready\n') ? resolve() : void setTimeout(check, 20));
    check();
  });
  const turns = workloadTurns(1, 1_000_000);
  const pending = [];
  const startedAt = Date.now();
  let appended = 0;
  // Ten events every 10 ms; the workload's 21-event turns are cut to size.
  const buffer: { type: string; data: unknown }[] = [];
  while (Date.now() - startedAt < DURATION_MS) {
    while (buffer.length < 10) buffer.push(...turns.next().value!.map(({ type, data }) => ({ type, data })));
    const batch = buffer.splice(0, 10);
    pending.push(live.append(batch));
    appended += batch.length;
    const due = startedAt + (appended / EVENTS_PER_SEC) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
  }
  await Promise.all(pending);
  await new Promise<void>((resolve) => clients.once('exit', () => resolve()));
  const result = JSON.parse(output.trim().split('\n').at(-1)!) as {
    delivered: number;
    seconds: number;
    lagP50Ms: number;
    lagP99Ms: number;
    stalledGotResync: boolean;
  };
  const fanoutEventsPerSec = result.delivered / (DURATION_MS / 1000);
  line(
    `fan-out: ${FOLLOWERS} followers, ${appended} events appended`,
    `${Math.round(fanoutEventsPerSec)} events/s delivered in total`,
  );
  line('delivery lag p50 / p99', `${result.lagP50Ms} ms / ${result.lagP99Ms} ms`);
  line('host peak RSS (sampled every 50 ms)', `${round(peakRss / 1e6)} MB`);
  line('stalled follower got follow.resync', String(result.stalledGotResync));
  await host.close();
  await stack.close();
  console.log(
    JSON.stringify({
      list10kMs: round(list10kMs),
      list10kBodyReads: listReads,
      followOpenMs: round(open.followOpenMs),
      shareFollowOpenMs: round(open.shareFollowOpenMs),
      fanoutEventsPerSec: Math.round(fanoutEventsPerSec),
      lagP50Ms: result.lagP50Ms,
      lagP99Ms: result.lagP99Ms,
      hostPeakRssMB: round(peakRss / 1e6),
      stalledGotResync: result.stalledGotResync,
    }),
  );
} finally {
  clearInterval(rssTimer);
  rmSync(root, { recursive: true, force: true });
}
