/**
 * `npm run bench:projection` — issue 3's benchmark, on the standard workload (packages/workload/README.md).
 *
 * 1. Fold throughput of every built-in unit over 1M workload events (target ≥ 1M events/s). The
 *    events are generated in ~100k batches (generation is not timed) and folded on from the
 *    previous batch's checkpoint rows, so memory stays bounded.
 * 2. Live `snapshot` cost for a tracked session of 1k vs 1M small events (target: 1M ≤ 2× 1k).
 * 3. `cachedSnapshot` of every built-in key over 10,000 sessions in a SQLite file (target ≤ 200 ms).
 *
 * The last line of output is one JSON object with the (wall-clock) figures; CPU times are printed
 * beside them because a shared 2-core box makes wall time noisy.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_UNITS, ProjectionRegistry, type CheckpointRows } from '@strand/projection';
import { ProjectionCache } from '@strand/projection-cache';
import {
  newSessionHeader,
  Session,
  SessionId,
  SessionLogOffset,
  type SessionEventInput,
} from '@strand/session';
import { workloadBatches, workloadEvents } from '@strand/workload';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
/** CPU time (user + system) since `start`, in ms: less sensitive than wall time to other processes on a shared box. */
const cpuMs = (start: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1_000;
};
const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function foldThroughput(): number {
  const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
  const header = newSessionHeader({ id: SessionId('bench-fold'), createdAt: 0 });
  let rows: CheckpointRows = {};
  let from = 0;
  let foldMs = 0;
  let foldCpuMs = 0;
  for (const inputs of workloadBatches(0, 1_000_000, 100_002)) {
    const events = workloadEvents(inputs, from);
    const runs: number[] = [];
    const cpu: number[] = [];
    let next: CheckpointRows = rows;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      const result = registry.restore({ header, rows, events, from: SessionLogOffset(from) });
      runs.push(performance.now() - started);
      cpu.push(cpuMs(cpuStarted));
      if (result.kind !== 'restored') throw new Error(`fold did not restore: ${result.kind}`);
      next = result.projection.rows;
    }
    foldMs += median(runs);
    foldCpuMs += median(cpu);
    rows = next;
    from += events.length;
  }
  const perSec = (from / foldMs) * 1_000;
  console.log(
    `fold: ${fmt(from)} workload events, ${BUILT_IN_UNITS.length} built-in units, ${fmt(foldMs, 1)} ms (CPU ${fmt(foldCpuMs, 1)} ms) → ${fmt(perSec)} events/s`,
  );
  return perSec;
}

async function liveSnapshotUs(eventCount: number): Promise<number> {
  const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
  const session = new Session({
    header: newSessionHeader({ id: SessionId(`bench-live-${eventCount}`), createdAt: 0 }),
  });
  registry.track(session);
  for (let at = 0; at < eventCount; at += 1_000) {
    const batch: SessionEventInput[] = [];
    for (let i = at; i < Math.min(at + 1_000, eventCount); i++) {
      batch.push(
        i % 100 === 0
          ? { type: 'session/title', data: { title: `t${i}` }, time: i }
          : { type: 'x/ping', data: { n: i % 10 }, time: i },
      );
    }
    await session.append(batch);
  }
  const calls = 20_000;
  const rounds: number[] = [];
  for (let round = 0; round < 7; round++) {
    const started = performance.now();
    for (let i = 0; i < calls; i++) registry.snapshot(session);
    rounds.push(((performance.now() - started) * 1_000) / calls);
  }
  const us = median(rounds);
  console.log(
    `live snapshot: ${fmt(eventCount)} small events → ${fmt(us, 2)} µs per snapshot (median of 7 × ${fmt(calls)})`,
  );
  return us;
}

function cachedSnapshots(): { medianMs: number; firstMs: number } {
  const dir = mkdtempSync(join(tmpdir(), 'strand-bench-projection-'));
  try {
    const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
    const path = join(dir, 'cache.db');
    const sessions = 10_000;
    const writer = ProjectionCache.open({ path, registry });
    const events = workloadEvents([...workloadBatches(0, 21, 21)].flat());
    for (let i = 0; i < sessions; i++) {
      const header = newSessionHeader({ id: SessionId(`s-${i}`), createdAt: i });
      writer.put(
        { header, incarnation: `inc-${i}` },
        SessionLogOffset(0),
        registry.foldAll(header, events).rows,
      );
    }
    writer.close();
    const reader = ProjectionCache.open({ path, registry });
    const subjects = Array.from({ length: sessions }, (_, i) => ({
      header: newSessionHeader({ id: SessionId(`s-${i}`), createdAt: i }),
      incarnation: `inc-${i}`,
    }));
    const runs: number[] = [];
    const cpu: number[] = [];
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      let served = 0;
      for (const subject of subjects)
        if (reader.cachedSnapshot(subject, SessionLogOffset(0)) !== undefined) served++;
      runs.push(performance.now() - started);
      cpu.push(cpuMs(cpuStarted));
      if (served !== sessions) throw new Error(`expected ${sessions} hits, got ${served}`);
    }
    reader.close();
    const medianMs = median(runs);
    console.log(
      `cachedSnapshot: ${fmt(sessions)} sessions × ${registry.keys().length} keys → ${fmt(medianMs, 1)} ms total (median of 5, CPU ${fmt(median(cpu), 1)} ms; first pass ${fmt(runs[0]!, 1)} ms)`,
    );
    return { medianMs, firstMs: runs[0]! };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const foldEventsPerSec = foldThroughput();
const liveSnapshotUs1k = await liveSnapshotUs(1_000);
const liveSnapshotUs1M = await liveSnapshotUs(1_000_000);
console.log(`live snapshot ratio 1M / 1k: ${fmt(liveSnapshotUs1M / liveSnapshotUs1k, 2)}× (target ≤ 2×)`);
const cached = cachedSnapshots();
console.log(
  JSON.stringify({
    foldEventsPerSec: Math.round(foldEventsPerSec),
    liveSnapshotUs1k: Number(liveSnapshotUs1k.toFixed(3)),
    liveSnapshotUs1M: Number(liveSnapshotUs1M.toFixed(3)),
    cached10kMs: Number(cached.medianMs.toFixed(1)),
  }),
);
