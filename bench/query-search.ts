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
 *
 * Type-ahead (issue 22): every session also gets a title (three vocabulary words, seeded) that the
 * index takes as its label, as a host's does (`titleLabeler`). A person typing sends one search per
 * prefix: for a few queries — a title word, a whole title as a phrase, a common and a rare message
 * word, two words — every prefix from two characters on is searched (first page of 20), and
 * `searchTypeAheadP95Ms` is the p95 over all of them (target ≤ 100 ms).
 *
 * Filtered type-ahead: every session is filed under one of 20 project folders (`cwd`), as a host's
 * are (`sessionFacets`), and the same prefixes are searched narrowed to one project, as the web UI
 * does with a project filter set: `searchFilteredTypeAheadP95Ms`. The filter is part of the index
 * query, so no header is read per keystroke.
 *
 * `STRAND_BENCH_SEARCH_SESSIONS` (default 10,000) shrinks the corpus to check the benchmark runs;
 * figures are only meaningful at the default.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SessionSearchIndex } from '@strand/search';
import { sessionFacets, titleLabeler } from '@strand/stack';
import { newSessionHeader, Session, SessionId, type SessionEventInput } from '@strand/session';
import { mulberry32, VOCABULARY, workloadEvents, workloadTurns } from '@strand/workload';

const SESSIONS = Number(process.env.STRAND_BENCH_SEARCH_SESSIONS ?? 10_000);
const EVENTS_PER_SESSION = 100; // rounded up to whole turns: 105
const SEARCHES = 200;
const WARMUP = 20;
/** Project folders the sessions are spread over; the filtered type-ahead narrows to one. */
const PROJECTS = 20;
const projectOf = (s: number): string => `/work/project-${s % PROJECTS}`;

export interface SearchBenchFigures {
  indexEventsPerSec: number;
  searchP50Ms: number;
  searchP99Ms: number;
  searchTypeAheadP95Ms: number;
  searchFilteredTypeAheadP95Ms: number;
}

/** Session `s`'s title: three vocabulary words, the same for every run. */
function titleOf(s: number): string {
  const rng = mulberry32(1_000_003 + s);
  return Array.from({ length: 3 }, () => VOCABULARY[Math.floor(rng() * VOCABULARY.length)]!).join(' ');
}

/** Every prefix of `query` from two characters on: what a person typing it sends. */
function prefixes(query: string): string[] {
  return Array.from({ length: Math.max(0, query.length - 1) }, (_, i) => query.slice(0, i + 2)).filter(
    (prefix) => prefix.trim().length > 0 && prefix.replaceAll('"', '').trim().length > 0,
  );
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
  const index = SessionSearchIndex.open({
    path: path.join(dir, 'search.db'),
    labeler: titleLabeler,
    facets: sessionFacets,
  });
  try {
    let events = 0;
    let rows = 0;
    let indexMs = 0;
    let indexCpuMs = 0;
    for (let s = 0; s < SESSIONS; s++) {
      const inputs: SessionEventInput[] = [];
      for (const turn of workloadTurns(s, EVENTS_PER_SESSION)) inputs.push(...turn);
      inputs.push({ type: 'session/title', data: { title: titleOf(s) } });
      const header = newSessionHeader({
        id: SessionId(`bench-${String(s).padStart(5, '0')}`),
        createdAt: 1_700_000_000_000 + s,
        cwd: projectOf(s),
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
    // Type-ahead: a title word, a whole title as a phrase, a frequent and a rare word, two words.
    const sample = titleOf(Math.floor(SESSIONS / 2));
    const typed = [
      sample.split(' ')[0]!,
      `"${sample}"`,
      VOCABULARY[0]!,
      VOCABULARY[VOCABULARY.length - 1]!,
      `${VOCABULARY[1]!} ${VOCABULARY[Math.floor(VOCABULARY.length / 2)]!}`,
    ];
    const typeAhead: number[] = [];
    const typedTimes: { prefix: string; ms: number }[] = [];
    for (const query of typed) {
      for (const prefix of prefixes(query)) {
        const started = performance.now();
        await index.search(prefix, { limit: 20 });
        const ms = performance.now() - started;
        typeAhead.push(ms);
        typedTimes.push({ prefix, ms });
      }
    }
    const filteredTypeAhead: number[] = [];
    const project = projectOf(Math.floor(SESSIONS / 2));
    for (const query of typed) {
      for (const prefix of prefixes(query)) {
        const started = performance.now();
        await index.search(prefix, { limit: 20, cwd: project });
        filteredTypeAhead.push(performance.now() - started);
      }
    }
    filteredTypeAhead.sort((a, b) => a - b);
    // The slowest keystrokes, so a missed target says which kind of query missed it.
    const slowest = typedTimes.sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(
      `  slowest keystrokes: ${slowest.map(({ prefix, ms }) => `${JSON.stringify(prefix)} ${ms.toFixed(1)} ms`).join(', ')}`,
    );
    typeAhead.sort((a, b) => a - b);
    firstPage.sort((a, b) => a - b);
    firstPageCpu.sort((a, b) => a - b);
    nextPage.sort((a, b) => a - b);
    const figures: SearchBenchFigures = {
      indexEventsPerSec,
      searchP50Ms: Number(percentile(firstPage, 50).toFixed(2)),
      searchP99Ms: Number(percentile(firstPage, 99).toFixed(2)),
      searchTypeAheadP95Ms: Number(percentile(typeAhead, 95).toFixed(2)),
      searchFilteredTypeAheadP95Ms: Number(percentile(filteredTypeAhead, 95).toFixed(2)),
    };
    // CPU time beside wall time: on a shared machine the wall figures include waiting for a core.
    console.log(
      `  search index: ${SESSIONS} sessions, ${events} events, ${rows} FTS rows, ${indexEventsPerSec} events/s (${Math.round(events / (indexCpuMs / 1000))} events/s of CPU time)`,
    );
    console.log(
      `  search first page (${SEARCHES} words): p50 ${figures.searchP50Ms} ms, p99 ${figures.searchP99Ms} ms, max ${firstPage.at(-1)!.toFixed(2)} ms; CPU time p50 ${percentile(firstPageCpu, 50).toFixed(2)} ms, p99 ${percentile(firstPageCpu, 99).toFixed(2)} ms`,
    );
    console.log(
      `  search as you type (${typeAhead.length} prefixes of ${JSON.stringify(typed)}): p95 ${figures.searchTypeAheadP95Ms} ms, max ${typeAhead.at(-1)!.toFixed(2)} ms`,
    );
    console.log(
      `  search as you type in one project of ${PROJECTS} (cwd ${project}): p95 ${figures.searchFilteredTypeAheadP95Ms} ms, max ${filteredTypeAhead.at(-1)!.toFixed(2)} ms`,
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
