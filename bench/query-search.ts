/**
 * The search part of `npm run bench:query` (issue 4, §5): index build throughput and search latency
 * over 10,000 sessions / ~1M events of the standard workload (packages/workload/README.md).
 *
 * Build: each session's 105 workload events (5 whole turns) are generated in memory and fed to the
 * index through `indexLive` — the in-memory builder path a host uses for live sessions — instead of
 * writing 1M events to disk and reading them back: the figure measures indexing (text extraction,
 * FTS5 tokenizing, one transaction per session batch), not persistence. Generation is not timed.
 * The index is a real file (WAL, `synchronous = OFF`: the index is derived and rebuildable).
 *
 * Search: 200 single words drawn uniformly from the workload vocabulary (seeded), first page of 20
 * sessions each, after 20 untimed warm-up searches; p50/p99 in ms. Uniform draws include the Zipf
 * head, i.e. words present in half of all events: those are the p99.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SessionSearchIndex } from '@strand/search';
import { newSessionHeader, Session, SessionId, type SessionEventInput } from '@strand/session';
import { mulberry32, VOCABULARY, workloadEvents, workloadTurns } from '@strand/workload';

const SESSIONS = 10_000;
const EVENTS_PER_SESSION = 100; // rounded up to whole turns: 105
const SEARCHES = 200;
const WARMUP = 20;

export interface SearchBenchFigures {
  indexEventsPerSec: number;
  searchP50Ms: number;
  searchP99Ms: number;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function benchSearch(): Promise<SearchBenchFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'strand-bench-search-'));
  const index = SessionSearchIndex.open({ path: path.join(dir, 'search.db') });
  try {
    let events = 0;
    let rows = 0;
    let indexMs = 0;
    let indexCpuMs = 0;
    for (let s = 0; s < SESSIONS; s++) {
      const inputs: SessionEventInput[] = [];
      for (const turn of workloadTurns(s, EVENTS_PER_SESSION)) inputs.push(...turn);
      const header = newSessionHeader({
        id: SessionId(`bench-${String(s).padStart(5, '0')}`),
        createdAt: 1_700_000_000_000 + s,
      });
      const session = new Session({ header, events: workloadEvents(inputs) });
      const started = performance.now();
      const cpu = process.cpuUsage();
      const report = index.indexLive(session);
      indexMs += performance.now() - started;
      indexCpuMs += cpuMs(cpu);
      events += report.events;
      rows += report.rows;
      if (s % 1_000 === 999) {
        console.log(
          `  indexed ${s + 1} sessions, ${events} events (${rows} rows) in ${(indexMs / 1000).toFixed(1)} s`,
        );
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    const indexEventsPerSec = Math.round(events / (indexMs / 1000));

    const rng = mulberry32(4242);
    const words = Array.from(
      { length: WARMUP + SEARCHES },
      () => VOCABULARY[Math.floor(rng() * VOCABULARY.length)]!,
    );
    const firstPage: number[] = [];
    const firstPageCpu: number[] = [];
    const nextPage: number[] = [];
    for (const [i, word] of words.entries()) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const page = await index.search(word, { limit: 20 });
      const ms = performance.now() - started;
      if (i < WARMUP) continue;
      firstPage.push(ms);
      firstPageCpu.push(cpuMs(cpu));
      if (page.nextCursor !== null) {
        const again = performance.now();
        await index.search(word, { limit: 20, cursor: page.nextCursor });
        nextPage.push(performance.now() - again);
      }
    }
    firstPage.sort((a, b) => a - b);
    firstPageCpu.sort((a, b) => a - b);
    nextPage.sort((a, b) => a - b);
    const figures: SearchBenchFigures = {
      indexEventsPerSec,
      searchP50Ms: Number(percentile(firstPage, 50).toFixed(2)),
      searchP99Ms: Number(percentile(firstPage, 99).toFixed(2)),
    };
    // CPU time beside wall time: on a shared machine the wall figures include waiting for a core.
    console.log(
      `  search index: ${SESSIONS} sessions, ${events} events, ${rows} FTS rows, ${indexEventsPerSec} events/s (${Math.round(events / (indexCpuMs / 1000))} events/s of CPU time)`,
    );
    console.log(
      `  search first page (${SEARCHES} words): p50 ${figures.searchP50Ms} ms, p99 ${figures.searchP99Ms} ms, max ${firstPage.at(-1)!.toFixed(2)} ms; CPU time p50 ${percentile(firstPageCpu, 50).toFixed(2)} ms, p99 ${percentile(firstPageCpu, 99).toFixed(2)} ms`,
    );
    if (nextPage.length > 0) {
      console.log(
        `  search second page (${nextPage.length}): p50 ${percentile(nextPage, 50).toFixed(2)} ms, p99 ${percentile(nextPage, 99).toFixed(2)} ms`,
      );
    }
    return figures;
  } finally {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
