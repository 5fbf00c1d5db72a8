/**
 * `npm run bench:subagents` — issue 5's benchmark, on the standard workload (packages/workload/README.md).
 *
 * A parent with 50 continuable children of 2,017 events each (a descriptor, then 96 standard
 * turns), listed with `listChildren`:
 *   (a) all live — rung 1, the registry's watermark cache;
 *   (b) all cold with cache rows — rung 2, the projection cache at inherited cut 0;
 *   (c) all cold without cache — rung 3, one body-bearing observation per child (a persistence
 *       `scan`: the data of event types no registered unit reads is never parsed);
 *   (d) a naive baseline: the design the seed replaced, two whole-log reads per child per listing;
 *   (c) again with 200 children, and the floor for (c): read, decompress and JSON.parse the same
 *   50 logs, nothing else.
 * Time per listing is the median of several listings; body reads (`inspect`/`scan`/`load`/`readFrom`)
 * are counted per listing. Lines after the figures break (c) down to show where its time goes.
 * The last line is one JSON object with the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import {
  SessionPreparations,
  escapeSessionId,
  openJsonlPersistence,
  persistenceWriter,
} from '@strand/persistence';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { SessionQuery } from '@strand/query';
import { Session, SessionId, newSessionHeader, silentLogger } from '@strand/session';
import { composeBaseStack, openDerivedStores } from '@strand/stack';
import {
  descriptorEvent,
  listChildren,
  parseSubagentDescriptor,
  registerSubagentUnits,
  subagentIdentityUnit,
  SUBAGENT_COLD_READ_CONCURRENCY,
  SUBAGENT_DESCRIPTOR_EVENT,
  type SubagentListEntry,
  type SubagentListingContext,
} from '@strand/subagent';
import { workloadTurns } from '@strand/workload';
import { CountingPersistence } from '@strand/test-support';
import { line, median, round } from './bench-util.js';
import { jsonlFloor } from './persistence-floor.js';

const CHILDREN = 50;
const CHILDREN_AT_SCALE = 200;
const TURN_EVENTS = 2_016; // 96 turns × 21; with the descriptor, 2,017 events per child
const quiet = silentLogger;

const root = mkdtempSync(path.join(tmpdir(), 'strand-bench-subagents-'));
const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS, reportError: () => undefined });
registerSubagentUnits(registry);
// JSONL opened here, not by `openFileStores`: the breakdown below times its own reads and worker.
const jsonl = await openJsonlPersistence({ root });
const persistence = new CountingPersistence(jsonl);
const stack = composeBaseStack({
  stores: openDerivedStores({ dataDir: root, registry, logger: quiet }, jsonl),
  registry,
  wrapPersistence: () => persistence,
  logger: quiet,
});
const { store, cache, cacheWrites: policy, query } = stack;

/** Writes a child: its descriptor, then the standard turns, one durable append per turn. */
async function writeChild(parent: string, index: number, live: boolean): Promise<Session> {
  const id = SessionId(`${parent}-child-${String(index).padStart(3, '0')}`);
  const header = newSessionHeader({
    id,
    createdAt: 1_700_000_000_000 + index,
    parentSession: SessionId(parent),
    origin: 'subagent',
    delegationDepth: 1,
  });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, id) });
  if (live) store.attach(session);
  await session.append(descriptorEvent({ version: 2, mode: 'continuable', label: `worker ${index}` }));
  for (const turn of workloadTurns(index, TURN_EVENTS)) await session.append(turn);
  return session;
}

/** Writes `count` children, eight at a time (their fsyncs overlap); setup only, not timed. */
async function writeChildren(parent: string, count: number, live: boolean): Promise<Session[]> {
  const out: Session[] = new Array<Session>(count);
  let next = 0;
  const writer = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) out[i] = await writeChild(parent, i, live);
  };
  await Promise.all(Array.from({ length: 8 }, writer));
  return out;
}

/** Median ms per listing over `runs` listings, and body reads per listing (checked equal across runs). */
async function measure(
  runs: number,
  list: () => Promise<readonly unknown[]>,
  expectRows: number,
): Promise<{ ms: number; cpuMs: number; gcMs: number; reads: number }> {
  const times: number[] = [];
  const cpu: number[] = [];
  const gc: number[] = [];
  const reads = new Set<number>();
  await list(); // warm-up: JIT, page cache
  for (let run = 0; run < runs; run++) {
    persistence.resetCounts();
    gcMs = 0;
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    const rows = await list();
    times.push(performance.now() - started);
    cpu.push(cpuMs(process.cpuUsage(cpuStart)));
    gc.push(gcMs);
    reads.add(persistence.bodyReads);
    if (rows.length !== expectRows) throw new Error(`expected ${expectRows} rows, got ${rows.length}`);
  }
  if (reads.size !== 1) throw new Error(`body reads differ between listings: ${[...reads].join(', ')}`);
  return { ms: median(times), cpuMs: median(cpu), gcMs: median(gc), reads: [...reads][0]! };
}

/** Garbage-collection pause time (ms) observed since the last reset. */
let gcMs = 0;
new PerformanceObserver((entries) => {
  for (const entry of entries.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

/** User + system CPU time of this process (all its threads), in ms. */
function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1_000;
}

function allChildren(rows: readonly SubagentListEntry[]): readonly SubagentListEntry[] {
  if (rows.some((r) => r.kind !== 'child'))
    throw new Error(`unexpected diagnostic rows: ${JSON.stringify(rows.filter((r) => r.kind !== 'child'))}`);
  return rows;
}

/**
 * The design the seed replaced: per child, a full-log materialization to find the descriptor and a
 * second one to read it, each with a full-log structuredClone; no cache at all.
 */
async function naiveListing(parentId: string): Promise<unknown[]> {
  const corpus = await query.listSessions();
  const children = corpus.filter(
    (r) => r.header.origin === 'subagent' && r.header.parentSession === parentId,
  );
  const rows: unknown[] = new Array(children.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < children.length; i = next++) {
      const id = children[i]!.header.id;
      const listed = structuredClone((await persistence.inspect(id)).events);
      const seq = listed.findLastIndex((e) => e.type === SUBAGENT_DESCRIPTOR_EVENT);
      const read = structuredClone((await persistence.inspect(id)).events);
      rows[i] = parseSubagentDescriptor(read[seq]?.data);
    }
  };
  await Promise.all(Array.from({ length: SUBAGENT_COLD_READ_CONCURRENCY }, worker));
  return rows;
}

function fileOf(id: string): string {
  return path.join(root, 'sessions', `${escapeSessionId(id)}.zst`);
}

try {
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores`,
  );
  console.log(
    `subagent listing: ${CHILDREN} continuable children × ${TURN_EVENTS + 1} events (JSONL+zstd, ${SUBAGENT_COLD_READ_CONCURRENCY} cold reads at a time)`,
  );
  let started = performance.now();
  const children = await writeChildren('parent', CHILDREN, true);
  await policy.drain();
  line('setup: write 50 live children', `${round((performance.now() - started) / 1_000, 1)} s`);

  const withCache: SubagentListingContext = {
    sessionProjections: registry,
    sessions: store,
    sessionQuery: query,
    sessionProjectionCache: cache,
  };
  const parent = SessionId('parent');

  // (a) all live.
  const live = await measure(21, async () => allChildren(await listChildren(withCache, parent)), CHILDREN);
  line(
    '(a) all live: ms per listing (CPU ms) / body reads',
    `${round(live.ms)} ms (${round(live.cpuMs)}) / ${live.reads}`,
  );
  const corpus = await measure(21, () => query.listSessions(), CHILDREN);
  line('  (a)/(b) share: the corpus listing alone (50 headers)', `${round(corpus.ms)} ms`);

  // (b) all cold with cache rows: detaching writes each child's final row.
  for (const child of children) store.detach(child);
  await policy.drain();
  const cached = await measure(21, async () => allChildren(await listChildren(withCache, parent)), CHILDREN);
  line(
    '(b) all cold, cache rows: ms per listing (CPU ms) / body reads',
    `${round(cached.ms)} ms (${round(cached.cpuMs)}) / ${cached.reads}`,
  );

  // (c) all cold without cache: neither the listing's rung 2 nor the query's restorable rows (a
  // second query over the stack's store and persistence, so built here).
  const bareQuery = new SessionQuery({
    persistence,
    preparations: new SessionPreparations(persistence),
    store,
    registry,
  });
  const withoutCache: SubagentListingContext = {
    sessionProjections: registry,
    sessions: store,
    sessionQuery: bareQuery,
  };
  // Steady state: the scan worker has started (until it has, scans read on the main thread).
  line('  scan worker ready', String(await jsonl.scanWorkerReady()));
  const cold = await measure(7, async () => allChildren(await listChildren(withoutCache, parent)), CHILDREN);
  line(
    '(c) all cold, no cache: ms per listing (CPU ms) / body reads',
    `${round(cold.ms)} ms (${round(cold.cpuMs)}) / ${cold.reads}`,
  );

  // Floor for (c): read, decompress, JSON.parse the same 50 logs — nothing else.
  const files = children.map((c) => fileOf(c.id));
  const floorRuns: number[] = [];
  const floorCpu: number[] = [];
  for (let run = 0; run < 8; run++) {
    const floorCpuStart = process.cpuUsage();
    started = performance.now();
    let events = 0;
    for (const file of files) events += jsonlFloor(file);
    floorCpu.push(cpuMs(process.cpuUsage(floorCpuStart)));
    floorRuns.push(performance.now() - started);
    if (events !== CHILDREN * (TURN_EVENTS + 1)) throw new Error(`floor parsed ${events} events`);
  }
  floorRuns.shift(); // warm-up
  floorCpu.shift();
  const coldFloorMs = median(floorRuns);
  const coldFloorCpuMs = median(floorCpu);
  line(
    '(c) floor: read + decompress + JSON.parse 50 logs (CPU ms)',
    `${round(coldFloorMs)} ms (${round(coldFloorCpuMs)})`,
  );

  // (d) naive baseline, same run, same logs.
  const naive = await measure(5, () => naiveListing('parent'), CHILDREN);
  line(
    '(d) naive (2 whole-log reads per child): ms (CPU ms) / body reads',
    `${round(naive.ms)} ms (${round(naive.cpuMs)}) / ${naive.reads}`,
  );

  // Where (c)'s time goes: the same 50 logs through each layer alone, one at a time.
  const ids = children.map((c) => c.id);
  const stage = async (label: string, fn: (id: SessionId) => unknown): Promise<number> => {
    const runs: number[] = [];
    for (let run = 0; run < 4; run++) {
      let ms = 0;
      for (const id of ids) ms += (await fn(id)) as number;
      runs.push(ms);
    }
    runs.shift();
    const ms = median(runs);
    line(`  (c) breakdown: ${label}`, `${round(ms)} ms`);
    return ms;
  };
  const timed = async (fn: () => unknown): Promise<number> => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  const identityOnly = new ProjectionRegistry({ units: [subagentIdentityUnit] });
  await stage('persistence.inspect ×50 (read, decompress, parse, validate, freeze)', (id) =>
    timed(() => jsonl.inspect(id)),
  );
  const dataTypes = registry.dataTypes();
  if (dataTypes === undefined) throw new Error('every registered unit declares its data reads');
  await stage(`persistence.scan ×50 (the same, parsing only ${[...dataTypes].length} types' data)`, (id) =>
    timed(() => jsonl.scan(id, { dataTypes })),
  );
  await stage('registry.foldAll, every registered unit ×50 (no I/O)', async (id) => {
    const log = await jsonl.scan(id, { dataTypes });
    return timed(() => registry.foldAll(log.header, log.events));
  });
  await stage('the subagent unit alone ×50 (no I/O)', async (id) => {
    const log = await jsonl.inspect(id);
    return timed(() => identityOnly.foldAll(log.header, log.events));
  });
  await stage("observeSession 'all', no events (a scan) + dispose ×50, one at a time", (id) =>
    timed(async () =>
      (await bareQuery.observeSession(id, { projectionMode: 'all', window: { last: 0 } })).dispose(),
    ),
  );

  // Diagnostic: GC pauses inside (c). Decoded logs that outlive a scavenge (pinned by the other
  // reads in flight, or retained by the preparation layer's LRU, which a 50-id scan never hits)
  // are copied into old space: a real share of the cold listing's CPU.
  line('  (c) GC pause per listing', `${round(cold.gcMs)} ms`);

  // (c) at scale: 200 cold children of another parent.
  started = performance.now();
  await writeChildren('big-parent', CHILDREN_AT_SCALE, false);
  line('setup: write 200 cold children', `${round((performance.now() - started) / 1_000, 1)} s`);
  const cold200 = await measure(
    3,
    async () => allChildren(await listChildren(withoutCache, SessionId('big-parent'))),
    CHILDREN_AT_SCALE,
  );
  line(
    '(c) 200 cold children, no cache: ms per listing / body reads',
    `${round(cold200.ms)} ms / ${cold200.reads}`,
  );

  console.log(
    `load average at end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const verdict = (ok: boolean): string => (ok ? 'ok' : 'MISSED');
  console.log(
    [
      `targets: (a) ${verdict(live.reads === 0 && live.ms <= 20)} 0 reads, ≤ 20 ms`,
      `(b) ${verdict(cached.reads === 0 && cached.ms <= 20)} 0 reads, ≤ 20 ms`,
      `(c) ${verdict(cold.reads === CHILDREN)} exactly 50 reads, ${verdict(cold.ms <= 400)} ≤ 400 ms, ${verdict(cold.ms <= coldFloorMs)} ≤ floor (${round(cold.ms / coldFloorMs)}× floor; CPU ${round(cold.cpuMs / coldFloorCpuMs)}×)`,
      `(d) ${verdict(naive.ms >= 1.8 * cold.ms)} ≥ 1.8× (c) (${round(naive.ms / cold.ms)}×)`,
    ].join(' · '),
  );
  bareQuery.close();
  console.log(
    JSON.stringify({
      liveMs: round(live.ms),
      cachedMs: round(cached.ms),
      coldMs: round(cold.ms),
      coldFloorMs: round(coldFloorMs),
      naiveMs: round(naive.ms),
      cold200Ms: round(cold200.ms),
      liveReads: live.reads,
      cachedReads: cached.reads,
      coldReads: cold.reads,
      naiveReads: naive.reads,
    }),
  );
} finally {
  await stack.close();
  rmSync(root, { recursive: true, force: true });
}
