/**
 * npm run bench:persistence [-- --1m] [-- --max=<events>] [-- --backend=jsonl|sqlite|postgres]
 *
 * The standard workload (packages/workload/README.md) against each backend: durable append throughput, stored
 * size, cold inspect vs the floor (both in one fresh process), tail read, fresh-process peak RSS and
 * listing 10,000 sessions. The last line is one JSON object with every figure. `--max` leaves out
 * the larger sizes (a quick check that the bench runs); the `…100k` keys then hold the largest size.
 * Beside the backends' figures it holds, per backend, `concurrentAppendSpeedup` (events/s of 50
 * sessions appending at once over one session's, the median of three adjacent pairs in one run;
 * target ≥ 5) and `appendOverFsyncFloor` (one session's one-turn appends over the device's write +
 * fdatasync floor; target ≥ 0.9). The
 * `concurrentAppendCpuCeiling` is the speedup the fan-out would reach bound by its CPU on one core
 * (one session's wall µs/event over the fan-out's CPU µs/event). The
 * `postgres` entries are measured when STRAND_TEST_PG_URL names a server (else null); its floor is
 * this machine's disk, so that ratio means something only for a server on the same disk.
 */
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session, SessionId, SessionSeq, newSessionHeader } from '@strand/session';
import { persistenceWriter, type SessionPersistence } from '@strand/persistence';
import { workloadBatches, workloadEventCount, workloadTurns } from '@strand/workload';
import { BACKENDS, openBackend, type BackendName } from './backends.js';
import { line, median, medianMs, round, timeIt } from './bench-util.js';
import { jsonlFloor, sqliteFloor } from './persistence-floor.js';
import { writeSmallSessions } from './small-sessions.js';
import { measureConcurrentAppends, type ConcurrentAppendFigures } from './concurrent-appends.js';
import { openPostgresPersistence } from '@strand/postgres';
import { createTestDatabase, testPgUrl } from '@strand/postgres/testing';

const here = path.dirname(fileURLToPath(import.meta.url));
const maxSize = Number(process.argv.find((a) => a.startsWith('--max='))?.slice('--max='.length) ?? Infinity);
const sizes = [1_000, 10_000, 100_000, ...(process.argv.includes('--1m') ? [1_000_000] : [])].filter(
  (size) => size <= maxSize,
);
/** The size the headline figures (`…100k`) describe: 100k unless `--max` leaves it out. */
const bigSize = sizes.includes(100_000) ? 100_000 : sizes.at(-1)!;

interface Figures {
  appendEventsPerSec: number;
  append1000EventsPerSec: number;
  storedOverLogical: number;
  inspectMs100k: number;
  inspectMBps: number;
  inspectEventsPerSec: number;
  floorMBps: number;
  inspectOverFloor: number;
  tailReadMs100k: number;
  /** Peak RSS of a fresh process (bundled JS) inspecting the 100k log, over its logical size. */
  inspectPeakRssOverLogSize: number;
  /** The same through tsx: its ESM loader thread adds ~40 MB. */
  inspectPeakRssOverLogSizeTsx: number;
  list10kMs: number;
  /** One-turn appends/s if each cost only a raw write + fdatasync of its frame on this disk. */
  fsyncFloorEventsPerSec: number;
  /** `appendEventsPerSec` over `fsyncFloorEventsPerSec`. */
  appendOverFsyncFloor: number;
  /** One session alone and 50 at once, one-turn appends, on this backend in this run. */
  concurrentAppends: ConcurrentAppendFigures;
}

/** A smaller fan-out when `--max` asks only whether the bench runs. */
const concurrentEventsEach = maxSize < 10_000 ? 210 : 2_100;

/**
 * A child script (`inspect-child`, `inspect-floor-child`) bundled into one plain ESM file beside
 * this one (so the native packages it leaves external resolve from the repository's
 * node_modules), built once per run.
 */
const bundled = new Map<string, Promise<string>>();
function bundledChild(name: string): Promise<string> {
  const known = bundled.get(name);
  if (known !== undefined) return known;
  const building = (async () => {
    const outfile = path.join(here, '.tmp-inspect-child', `${name}.mjs`);
    await build({
      entryPoints: [path.join(here, `${name}.ts`)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile,
      external: ['better-sqlite3', 'zstd-napi', 'pg'],
      // Bundled CommonJS dependencies call require(); give the ESM bundle one.
      banner: {
        js: "import { createRequire as strandBundleRequire } from 'node:module'; const require = strandBundleRequire(import.meta.url);",
      },
      logLevel: 'warning',
    });
    process.on('exit', () => rmSync(path.dirname(outfile), { recursive: true, force: true }));
    return outfile;
  })();
  bundled.set(name, building);
  return building;
}

/**
 * The device's floor for one-turn appends: write a turn-sized frame and fdatasync it, awaited one
 * after another — nothing else. No sequential durable append can beat it.
 */
async function fsyncFloorEventsPerSec(root: string, frameBytes: number): Promise<number> {
  const file = path.join(root, 'fsync-floor.bin');
  const handle = await open(file, 'w');
  const frame = Buffer.alloc(frameBytes, 0x61);
  const rounds = 1_000;
  try {
    const { ms } = await timeIt(async () => {
      for (let i = 0; i < rounds; i++) {
        await handle.write(frame);
        await handle.datasync();
      }
    });
    return (rounds * 21) / (ms / 1000);
  } finally {
    await handle.close();
    rmSync(file, { force: true });
  }
}

async function writeSession(
  persistence: SessionPersistence,
  id: string,
  eventCount: number,
  batchEvents: number,
): Promise<{ ms: number; events: number; logicalBytes: number }> {
  const sid = SessionId(id);
  const header = newSessionHeader({ id: sid, createdAt: 1_700_000_000_000 });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, sid) });
  const batches =
    batchEvents === 21 ? [...workloadTurns(0, eventCount)] : [...workloadBatches(0, eventCount, batchEvents)];
  const { ms } = await timeIt(async () => {
    for (const batch of batches) await session.append(batch);
  });
  let logicalBytes = 0;
  for (const e of session.events) logicalBytes += Buffer.byteLength(JSON.stringify(e)) + 1;
  return { ms, events: session.events.length, logicalBytes };
}

async function benchBackend(name: BackendName): Promise<Figures> {
  console.log(`\n${name}`);
  const root = mkdtempSync(path.join(tmpdir(), `strand-bench-${name}-`));
  try {
    let persistence = await openBackend(name, root);
    const perSize = new Map<number, { logicalBytes: number; id: string }>();
    let appendEventsPerSec = 0;
    for (const size of sizes) {
      const r = await writeSession(persistence, `turns-${size}`, size, 21);
      perSize.set(size, { logicalBytes: r.logicalBytes, id: `turns-${size}` });
      const rate = r.events / (r.ms / 1000);
      if (size === bigSize) appendEventsPerSec = rate;
      line(`append, one turn per append, ${workloadEventCount(size)} events`, `${Math.round(rate)} events/s`);
    }
    // A one-turn frame of the workload is ~6 KB compressed (stored size / turns of the 100k log is
    // printed below); measure the device floor with the same size, right after the appends.
    const floorRate = await fsyncFloorEventsPerSec(root, 6 * 1024);
    line(
      'device floor: write + fdatasync per turn, awaited',
      `${Math.round(floorRate)} events/s (appends reach ${round(appendEventsPerSec / floorRate, 2)}× of it)`,
    );
    const concurrentAppends = await measureConcurrentAppends(persistence, concurrentEventsEach);
    let append1000EventsPerSec = 0;
    for (const size of sizes) {
      const r = await writeSession(persistence, `thousands-${size}`, size, 1000);
      const rate = r.events / (r.ms / 1000);
      if (size === bigSize) append1000EventsPerSec = rate;
      line(
        `append, 1,000 events per append, ${workloadEventCount(size)} events`,
        `${Math.round(rate)} events/s`,
      );
    }
    await persistence.close();

    persistence = await openBackend(name, root);
    const summaries = await persistence.list();
    const big = perSize.get(bigSize)!;
    const bigSummary = summaries.find((s) => s.header.id === big.id)!;
    const storedOverLogical = bigSummary.storedBytes / big.logicalBytes;
    line(
      `stored size / logical JSON (${workloadEventCount(bigSize)} events)`,
      `${round(storedOverLogical, 3)} (${round(big.logicalBytes / 1e6)} MB logical)`,
    );

    // The old way, kept for comparison: inspect and its floor in this process, which has just
    // written the logs and still holds them, so both pay GC for that heap.
    let inProcessInspectMs = 0;
    for (const size of sizes) {
      const { id, logicalBytes } = perSize.get(size)!;
      const ms = await medianMs(size >= 1_000_000 ? 1 : 5, () => persistence.inspect(SessionId(id)));
      if (size === bigSize) inProcessInspectMs = ms;
      line(
        `cold inspect ${workloadEventCount(size)} events (in the writing process)`,
        `${round(ms)} ms, ${round(logicalBytes / 1e6 / (ms / 1000))} MB/s`,
      );
    }
    const inProcessFloorMs = await medianMs(5, () =>
      name === 'jsonl'
        ? jsonlFloor(path.join(root, 'sessions', `${big.id}.zst`))
        : sqliteFloor(path.join(root, 'strand.db'), big.id),
    );
    line(
      '  its floor, and inspect / floor, in the writing process',
      `${round(inProcessFloorMs)} ms, ${round(inProcessFloorMs / inProcessInspectMs, 3)} (the old figure)`,
    );
    await persistence.close();

    // The figures: inspect and its floor side by side in one fresh process (bundled JS, what a
    // deployment runs), so `inspectOverFloor` compares like with like.
    const fresh = JSON.parse(
      execFileSync(
        process.execPath,
        [await bundledChild('inspect-floor-child'), name, root, big.id, bigSize >= 1_000_000 ? '1' : '5'],
        { encoding: 'utf8' },
      )
        .trim()
        .split('\n')
        .at(-1)!,
    ) as { inspectMs: number; floorMs: number };
    const inspectMs100k = fresh.inspectMs;
    const floorMs = fresh.floorMs;
    const inspectMBps = big.logicalBytes / 1e6 / (inspectMs100k / 1000);
    const floorMBps = big.logicalBytes / 1e6 / (floorMs / 1000);
    line(
      `cold inspect ${workloadEventCount(bigSize)} events (fresh process)`,
      `${round(inspectMs100k)} ms, ${round(inspectMBps)} MB/s`,
    );
    line(
      `floor (read + decompress + JSON.parse per line), fresh process`,
      `${round(floorMs)} ms, ${round(floorMBps)} MB/s`,
    );
    line('inspect / floor (throughput ratio, fresh process)', round(inspectMBps / floorMBps, 3));

    // The tail read runs on a fresh instance: the derived frame index comes from disk, not memory.
    persistence = await openBackend(name, root);
    const last = workloadEventCount(bigSize) - 21;
    const tailTimes: number[] = [];
    for (let i = 0; i < 7; i++) {
      tailTimes.push((await timeIt(() => persistence.readFrom(SessionId(big.id), SessionSeq(last)))).ms);
    }
    const tailReadMs100k = median(tailTimes);
    line(
      `readFrom last turn of ${workloadEventCount(bigSize)} events`,
      `${round(tailReadMs100k, 3)} ms (first ${round(tailTimes[0]!, 3)} ms)`,
    );
    await persistence.close();

    // Two fresh processes: the child bundled into plain JS (what a deployment runs: the figure
    // compared with the target) and the same source run through tsx, whose loader thread alone
    // costs ~40 MB that is not Strand's.
    const peakRss = (args: readonly string[]): number => {
      const out = execFileSync(process.execPath, [...args, name, root, big.id], { encoding: 'utf8' });
      return (JSON.parse(out.trim().split('\n').at(-1)!) as { maxRssBytes: number }).maxRssBytes;
    };
    const bundledRss = peakRss([await bundledChild('inspect-child')]);
    const tsxRss = peakRss(['--import', 'tsx', path.join(here, 'inspect-child.ts')]);
    const inspectPeakRssOverLogSize = bundledRss / big.logicalBytes;
    const inspectPeakRssOverLogSizeTsx = tsxRss / big.logicalBytes;
    line(
      `fresh process inspecting ${workloadEventCount(bigSize)} events: peak RSS (bundled JS)`,
      `${round(bundledRss / 1e6)} MB = ${round(inspectPeakRssOverLogSize, 3)}× logical`,
    );
    line(
      '  the same run through tsx (loader thread included)',
      `${round(tsxRss / 1e6)} MB = ${round(inspectPeakRssOverLogSizeTsx, 3)}× logical`,
    );

    const listRoot = mkdtempSync(path.join(tmpdir(), `strand-bench-list-${name}-`));
    try {
      let many = await openBackend(name, listRoot);
      const { ms: fillMs } = await timeIt(() => writeSmallSessions(many));
      await many.close();
      many = await openBackend(name, listRoot);
      const listTimes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const { ms, value } = await timeIt(() => many.list());
        if (value.length !== 10_000) throw new Error(`listed ${value.length} sessions, expected 10000`);
        listTimes.push(ms);
      }
      await many.close();
      const list10kMs = median(listTimes);
      line('list 10,000 sessions', `${round(list10kMs)} ms (filled in ${round(fillMs / 1000, 1)} s)`);
      return {
        appendEventsPerSec: Math.round(appendEventsPerSec),
        append1000EventsPerSec: Math.round(append1000EventsPerSec),
        storedOverLogical: round(storedOverLogical, 3),
        inspectMs100k: round(inspectMs100k),
        inspectMBps: round(inspectMBps),
        inspectEventsPerSec: Math.round(workloadEventCount(bigSize) / (inspectMs100k / 1000)),
        floorMBps: round(floorMBps),
        inspectOverFloor: round(inspectMBps / floorMBps, 3),
        tailReadMs100k: round(tailReadMs100k, 3),
        inspectPeakRssOverLogSize: round(inspectPeakRssOverLogSize, 3),
        inspectPeakRssOverLogSizeTsx: round(inspectPeakRssOverLogSizeTsx, 3),
        list10kMs: round(list10kMs),
        fsyncFloorEventsPerSec: Math.round(floorRate),
        appendOverFsyncFloor: round(appendEventsPerSec / floorRate, 3),
        concurrentAppends,
      };
    } finally {
      rmSync(listRoot, { recursive: true, force: true });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * PostgreSQL's two append figures, on a throwaway database of the server STRAND_TEST_PG_URL names,
 * or null without one (`npm run bench:persistence` does not start a server; run it through
 * scripts/with-postgres.sh for these).
 */
async function benchPostgresAppends(
  eventsEach: number,
): Promise<{ concurrent: ConcurrentAppendFigures; floor: number } | null> {
  if (testPgUrl === undefined) {
    console.log('\npostgres: left out (no STRAND_TEST_PG_URL; run through scripts/with-postgres.sh)');
    return null;
  }
  console.log('\npostgres');
  const root = mkdtempSync(path.join(tmpdir(), 'strand-bench-pg-appends-'));
  const database = await createTestDatabase('strand_bench_appends');
  try {
    const pg = await openPostgresPersistence({ url: database.url });
    try {
      const concurrent = await measureConcurrentAppends(pg, eventsEach);
      return { concurrent, floor: await fsyncFloorEventsPerSec(root, 6 * 1024) };
    } finally {
      await pg.close();
    }
  } finally {
    await database.drop();
    rmSync(root, { recursive: true, force: true });
  }
}

const only = process.argv.find((a) => a.startsWith('--backend='))?.slice('--backend='.length);
const result: Partial<Record<BackendName, Figures>> = {};
for (const name of BACKENDS) if (only === undefined || only === name) result[name] = await benchBackend(name);
const postgres =
  only === undefined || only === 'postgres' ? await benchPostgresAppends(concurrentEventsEach) : null;
/** A backend's figure, or null when this run left it out. */
const each = (pick: (figures: Figures) => number): Record<BackendName, number | null> =>
  Object.fromEntries(
    BACKENDS.map((name) => [name, result[name] === undefined ? null : pick(result[name])]),
  ) as Record<BackendName, number | null>;
console.log(
  JSON.stringify({
    ...result,
    // JSONL's parallel syncs are bounded by libuv's pool (persistence README, "Many sessions at once").
    uvThreadpoolSize: Number(process.env.UV_THREADPOOL_SIZE ?? 4),
    concurrentAppendSpeedup: {
      ...each((f) => round(f.concurrentAppends.speedup, 2)),
      postgres: postgres === null ? null : round(postgres.concurrent.speedup, 2),
    },
    // What caps the speedup on one core: the fan-out's CPU per event (persistence README, "What
    // bounds the fan-out"). PostgreSQL's excludes the server's CPU, so it is an upper bound only.
    concurrentAppendCpuCeiling: {
      ...each((f) => round(f.concurrentAppends.cpuBoundSpeedupOneCore, 2)),
      postgres: postgres === null ? null : round(postgres.concurrent.cpuBoundSpeedupOneCore, 2),
    },
    appendOverFsyncFloor: {
      ...each((f) => f.appendOverFsyncFloor),
      postgres:
        postgres === null ? null : round(postgres.concurrent.oneSessionEventsPerSec / postgres.floor, 3),
    },
  }),
);
