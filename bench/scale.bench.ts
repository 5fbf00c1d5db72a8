/**
 * npm run bench:scale [-- --sessions N] [-- --events M] [-- --corpus <dir>] [-- --backend sqlite,postgres] [-- --quick]
 *
 * One corpus for a team (issue 41, item 5): `sessions` sessions (default 1,000,000) sharing
 * `events` events (default 10,000,000) of the standard workload's text, on SQLite (the files
 * store's databases) and on PostgreSQL (when STRAND_TEST_PG_URL is set; the npm script starts a
 * throwaway server unless it is). The corpus is written through the stores directly
 * (`scale-corpus.ts`), then the list index is built by `strand doctor --rebuild-list`'s code
 * (`listIndexBuildSeconds`). The figures are taken over the wire from the real host in a process
 * of its own (`scale-host.ts`): `session.list` first and deep pages (`listPageP99Ms`), filtered
 * pages (`filteredPageP99Ms`), `session.search` literal words and phrases (`searchP99Ms`), and the
 * host's peak RSS meanwhile (`hostRssMB`). Targets: ≤ 50 ms for each p99, ≤ 600 MB.
 *
 * Generation is resumable: `--corpus <dir>` (default: `strand-bench-scale` in the temp folder)
 * keeps the SQLite corpus and a progress file per backend; a rerun continues where one stopped
 * (on PostgreSQL, while the same server keeps the database). `--quick` (2,000 sessions, 20,000
 * events, a throwaway folder) checks the bench works end to end; its figures mean nothing.
 * Last line: one JSON object, `{ quick, sqlite?: {…}, postgres?: {…} }`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openPostgresSearchIndex } from '@strand/postgres';
import { openStores, strandRegistry, resolveRuntimeOptions, type RuntimeStores } from '@strand/runtime';
import { sessionFacets, titleLabeler } from '@strand/stack';
import { rebuildList } from '../packages/cli/src/commands/rebuild-list.js';
import { line, round } from './bench-util.js';
import { CorpusProgress, generateCorpus, type CorpusSize } from './scale-corpus.js';
import { openScaleDatabase } from './scale-database.js';
import { measureHost, type ScaleFigures } from './scale-measure.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    sessions: { type: 'string' },
    events: { type: 'string' },
    corpus: { type: 'string' },
    backend: { type: 'string', default: 'sqlite,postgres' },
    quick: { type: 'boolean', default: false },
  },
});
const quick = args.quick;
const size: CorpusSize = {
  sessions: Number(args.sessions ?? (quick ? 2_000 : 1_000_000)),
  events: Number(args.events ?? (quick ? 20_000 : 10_000_000)),
};
if (
  !Number.isInteger(size.sessions) ||
  size.sessions < 1 ||
  !Number.isInteger(size.events) ||
  size.events < 1
)
  throw new Error('--sessions and --events take positive integers');
const throwaway = quick && args.corpus === undefined;
const corpusDir = throwaway
  ? mkdtempSync(path.join(tmpdir(), 'strand-bench-scale-quick-'))
  : path.resolve(args.corpus ?? path.join(tmpdir(), 'strand-bench-scale'));
mkdirSync(corpusDir, { recursive: true });
const backends = args.backend
  .split(',')
  .filter((name) => name === 'sqlite' || process.env.STRAND_TEST_PG_URL);
/** Timed repetitions of each call: fewer at full size, where each pass is longer. */
const ROUNDS = quick ? 1 : 5;

interface BackendFigures extends ScaleFigures, CorpusSize {
  listIndexBuildSeconds: number;
  /** Sessions written per second by this run's generation (absent: the corpus was already complete). */
  generationSessionsPerSecond?: number;
  /** From starting the host's process to its serving (opening the stores and reconciling the list index included). */
  hostStartSeconds: number;
}

/** Generates (or resumes) the corpus of one backend, builds its list index, then measures its host. */
async function benchBackend(
  name: string,
  dataDir: string,
  store: string,
  fresh: boolean,
): Promise<BackendFigures> {
  const progressFile = path.join(corpusDir, `${name}-progress.json`);
  // A new database holds nothing of the progress recorded for an earlier one.
  if (fresh) rmSync(progressFile, { force: true });
  const progress = new CorpusProgress(progressFile, size);
  const generationSessionsPerSecond =
    progress.done < size.sessions || progress.listIndexBuildSeconds === undefined
      ? await buildCorpus(name, dataDir, store, progress)
      : undefined;
  const listIndexBuildSeconds = progress.listIndexBuildSeconds!;
  line(`${name}: list index build`, `${round(listIndexBuildSeconds, 1)} s`);

  const hostStarted = performance.now();
  const host = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'scale-host.ts'), dataDir, store],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  try {
    const rpcUrl = await new Promise<string>((resolve, reject) => {
      let output = '';
      host.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const ready = /\{"rpcUrl":"[^"]+"\}/.exec(output);
        if (ready !== null) resolve((JSON.parse(ready[0]) as { rpcUrl: string }).rpcUrl);
      });
      host.once('exit', (code) => reject(new Error(`the host exited (${code}) before serving`)));
    });
    const hostStartSeconds = round((performance.now() - hostStarted) / 1000, 2);
    line(`${name}: host start-up (until it serves)`, `${hostStartSeconds} s`);
    const figures = await measureHost(rpcUrl, host.pid!, size, ROUNDS);
    line(`${name}: list pages p99 (first and deep)`, `${round(figures.listPageP99Ms)} ms`);
    line(`${name}: filtered pages p99`, `${round(figures.filteredPageP99Ms)} ms`);
    line(`${name}: search p99 (literal and phrase)`, `${round(figures.searchP99Ms)} ms`);
    line(`${name}: host peak RSS`, `${figures.hostRssMB} MB`);
    return {
      ...size,
      ...figures,
      listIndexBuildSeconds: round(listIndexBuildSeconds, 1),
      hostStartSeconds,
      ...(generationSessionsPerSecond === undefined
        ? {}
        : { generationSessionsPerSecond: Math.round(generationSessionsPerSecond) }),
    };
  } finally {
    const exited = new Promise((resolve) => host.once('exit', resolve));
    host.stdin.end();
    await exited;
  }
}

/**
 * Writes what the progress lacks of the corpus, then builds its list index (timed). Resolves with
 * the sessions written per second (undefined when there were none to write).
 */
async function buildCorpus(
  name: string,
  dataDir: string,
  store: string,
  progress: CorpusProgress,
): Promise<number | undefined> {
  const registry = strandRegistry();
  const options = resolveRuntimeOptions({
    dataDir,
    ...(store === 'sqlite' ? { backend: 'sqlite' as const } : { store }),
  });
  const stores = await openStores(options, registry);
  let open = true;
  let rate: number | undefined;
  try {
    if (progress.done < size.sessions) {
      const toWrite = size.sessions - progress.done;
      console.log(`${name}: writing ${toWrite} of ${size.sessions} sessions …`);
      const started = performance.now();
      await generateWith(stores, store, size, progress);
      rate = toWrite / ((performance.now() - started) / 1000);
      line(`${name}: generation`, `${Math.round(rate)} sessions/s`);
    }
    console.log(`${name}: building the list index (strand doctor --rebuild-list) …`);
    const started = performance.now();
    await rebuildList(stores, registry);
    // PostgreSQL writes list rows behind: the build ends once they are committed, at close.
    open = false;
    await stores.close();
    progress.update({ listIndexBuildSeconds: (performance.now() - started) / 1000 });
  } finally {
    if (open) await stores.close();
  }
  return rate;
}

/** PostgreSQL's search index writes one transaction at a time per instance: these more write beside it (a slice of each group each). */
const EXTRA_PG_SEARCH_WRITERS = 3;

async function generateWith(
  stores: RuntimeStores,
  store: string,
  size: CorpusSize,
  progress: CorpusProgress,
): Promise<void> {
  const extra =
    store === 'sqlite'
      ? []
      : await Promise.all(
          Array.from({ length: EXTRA_PG_SEARCH_WRITERS }, () =>
            openPostgresSearchIndex({ url: store, labeler: titleLabeler, facets: sessionFacets }),
          ),
        );
  try {
    await generateCorpus(
      { persistence: stores.persistence, search: [stores.search, ...extra] },
      size,
      progress,
      console.log,
    );
  } finally {
    for (const index of extra) await index.close();
  }
}

const result: Record<string, unknown> = { quick };
try {
  for (const name of backends) {
    if (name === 'sqlite') {
      const dataDir = path.join(corpusDir, 'sqlite');
      if (!existsSync(dataDir)) mkdirSync(dataDir);
      result.sqlite = round3(await benchBackend(name, dataDir, 'sqlite', false));
    } else if (name === 'postgres') {
      const database = await openScaleDatabase(path.join(corpusDir, 'postgres-database.json'), throwaway);
      try {
        result.postgres = round3(
          await benchBackend(name, path.join(corpusDir, 'postgres-data'), database.url, database.fresh),
        );
      } finally {
        await database.release();
      }
    }
  }
} finally {
  if (throwaway) rmSync(corpusDir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));

function round3(figures: BackendFigures): BackendFigures {
  return {
    ...figures,
    listPageP99Ms: round(figures.listPageP99Ms),
    filteredPageP99Ms: round(figures.filteredPageP99Ms),
    searchP99Ms: round(figures.searchP99Ms),
  };
}
