/**
 * The corpus of `npm run bench:scale`: `sessions` sessions sharing `events` events of the standard
 * workload's text (packages/workload/README.md), written through the stores directly — the
 * persistence's create and bulk append, and the search index's writer — never through a host.
 * Generation is resumable: a progress file beside the corpus records how many sessions are
 * complete (whole batches, flushed), and a rerun continues after them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { SessionPersistence } from '@strand/persistence';
import type { SearchIndex } from '@strand/search';
import {
  newSessionHeader,
  SessionId,
  SessionLogOffset,
  type SessionEvent,
  type SessionHeader,
} from '@strand/session';
import { mulberry32, VOCABULARY, WORKLOAD_START_TIME, workloadEvents, workloadTurns } from '@strand/workload';

/** Project folders the sessions are filed under (the `cwd` filter narrows to one: 1 in 50). */
export const PROJECTS = 50;
/** Harnesses by session index modulo their count; `strand` is a session of Strand's own (no `source`). */
export const HARNESSES = ['strand', 'claude-code', 'codex', 'pi'] as const;
/** Every tenth session is a subagent child of the session before it (the `parent` filter). */
const CHILD_EVERY = 10;
/** Sessions are a minute apart, so last activity spreads the corpus over years, as a team's does. */
const SESSION_SPACING_MS = 60_000;
/**
 * Sessions written at once (the persistence commits their appends together, the search index
 * indexes them in one transaction where it can), and per resumable batch.
 */
const GROUP = 250;
const BATCH = 1_000;

export interface CorpusSize {
  readonly sessions: number;
  readonly events: number;
}

export const sessionId = (s: number): SessionId => SessionId(`scale-${String(s).padStart(8, '0')}`);
export const projectOf = (s: number): string => `/work/project-${s % PROJECTS}`;
export const harnessOf = (s: number): string => HARNESSES[s % HARNESSES.length]!;

/** Session `s`'s title: three vocabulary words, the same for every run (a phrase search target). */
export function titleOf(s: number): string {
  const rng = mulberry32(1_000_003 + s);
  return Array.from({ length: 3 }, () => VOCABULARY[Math.floor(rng() * VOCABULARY.length)]!).join(' ');
}

/** Session `s`'s events: `events / sessions` (the remainder to the first ones), at least the title. */
export function eventsOf(size: CorpusSize, s: number): number {
  const base = Math.floor(size.events / size.sessions);
  return Math.max(1, base + (s < size.events % size.sessions ? 1 : 0));
}

export function headerOf(s: number): SessionHeader {
  const harness = harnessOf(s);
  const isChild = s % CHILD_EVERY === CHILD_EVERY - 1;
  return newSessionHeader({
    id: sessionId(s),
    createdAt: WORKLOAD_START_TIME + s * SESSION_SPACING_MS,
    cwd: projectOf(s),
    ...(harness === 'strand' ? {} : { source: { harness, sourceId: `src-${s}` } }),
    ...(isChild ? { origin: 'subagent' as const, parentSession: sessionId(s - 1) } : {}),
  });
}

/** The title event, then the workload's turns cut to the session's share, moved to its own time. */
function inputsOf(size: CorpusSize, s: number) {
  const count = eventsOf(size, s);
  const shift = s * SESSION_SPACING_MS;
  const inputs = [{ type: 'session/title', data: { title: titleOf(s) }, time: WORKLOAD_START_TIME + shift }];
  for (const turn of workloadTurns(s, count - 1)) {
    for (const input of turn) {
      if (inputs.length >= count) break;
      inputs.push({ ...input, data: input.data as never, time: (input.time ?? WORKLOAD_START_TIME) + shift });
    }
  }
  return inputs;
}

interface Progress extends CorpusSize {
  readonly done: number;
  readonly listIndexBuildSeconds?: number;
}

/** The corpus's progress file: sessions complete, and the list index build once it ran. */
export class CorpusProgress {
  readonly #file: string;
  #state: Progress;

  constructor(file: string, size: CorpusSize) {
    this.#file = file;
    const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Progress) : undefined;
    if (stored !== undefined && (stored.sessions !== size.sessions || stored.events !== size.events))
      throw new Error(
        `${file} is a corpus of ${stored.sessions} sessions / ${stored.events} events, not ${size.sessions} / ${size.events}: use another --corpus folder`,
      );
    this.#state = stored ?? { ...size, done: 0 };
  }

  get done(): number {
    return this.#state.done;
  }

  get listIndexBuildSeconds(): number | undefined {
    return this.#state.listIndexBuildSeconds;
  }

  update(change: Partial<Progress>): void {
    this.#state = { ...this.#state, ...change };
    writeFileSync(this.#file, JSON.stringify(this.#state));
  }
}

/**
 * A search index that can also index many sessions in one transaction: SQLite's (committed when it
 * returns) and PostgreSQL's (a promise, settled when committed).
 */
interface BulkSearchIndex extends SearchIndex {
  indexLiveMany(sessions: readonly WrittenSession[]): unknown;
}

export interface CorpusStores {
  readonly persistence: SessionPersistence;
  /**
   * Search index writers over one index. With `indexLiveMany` each group is split over them, a
   * slice each, every slice indexed in one transaction; the slices run in parallel where the engine
   * is asynchronous (PostgreSQL: `to_tsvector` runs in the server, one backend per writer).
   * Otherwise they are used round-robin, one `indexLive` per session.
   */
  readonly search: readonly (SearchIndex | BulkSearchIndex)[];
}

/** A session as written: what the search index's writer takes (its events from memory). */
interface WrittenSession {
  readonly id: SessionId;
  readonly incarnation: string;
  readonly header: SessionHeader;
  readonly inheritedEventCount: SessionLogOffset;
  readonly events: readonly SessionEvent[];
}

/**
 * Writes the sessions the progress does not count yet, a group at a time: every session of the
 * group created and its events appended in one bulk append, all at once (the persistence commits
 * concurrent appends of many sessions together), then the group indexed for search from those
 * events (no log read back). A session of an interrupted batch is deleted first, so the batch is
 * written whole again.
 */
export async function generateCorpus(
  stores: CorpusStores,
  size: CorpusSize,
  progress: CorpusProgress,
  log: (message: string) => void,
): Promise<void> {
  const started = performance.now();
  const from = progress.done;
  for (let batchStart = from; batchStart < size.sessions; batchStart += BATCH) {
    const batchEnd = Math.min(size.sessions, batchStart + BATCH);
    // Only the first batch after a resume can hold sessions of an interrupted run.
    const resumed = batchStart === from && from > 0;
    for (let groupStart = batchStart; groupStart < batchEnd; groupStart += GROUP) {
      const group = Array.from({ length: Math.min(GROUP, batchEnd - groupStart) }, (_, i) => groupStart + i);
      const written = await Promise.all(group.map((s) => writeSession(stores.persistence, size, s, resumed)));
      await indexForSearch(stores.search, written);
    }
    await stores.persistence.flush();
    progress.update({ done: batchEnd });
    const seconds = (performance.now() - started) / 1000;
    const rate = (batchEnd - from) / seconds;
    log(
      `  ${batchEnd} / ${size.sessions} sessions (${Math.round(rate)}/s, ~${Math.round((size.sessions - batchEnd) / rate)} s left)`,
    );
  }
}

async function writeSession(
  persistence: SessionPersistence,
  size: CorpusSize,
  s: number,
  resumed: boolean,
): Promise<WrittenSession> {
  const header = headerOf(s);
  // Left by an interrupted batch: written again whole.
  if (resumed && (await persistence.revisionOf(header.id)) !== undefined) await persistence.delete(header.id);
  const { incarnation } = await persistence.create({ header });
  const events = workloadEvents(inputsOf(size, s));
  await persistence.append(header.id, events);
  return { id: header.id, incarnation, header, inheritedEventCount: SessionLogOffset(0), events };
}

/** Indexes a group for search: a slice per writer where the index takes many, else round-robin. */
async function indexForSearch(
  search: readonly (SearchIndex | BulkSearchIndex)[],
  written: readonly WrittenSession[],
): Promise<void> {
  const bulk = search.filter((index): index is BulkSearchIndex => 'indexLiveMany' in index);
  if (bulk.length > 0) {
    const slice = Math.ceil(written.length / bulk.length);
    // A synchronous engine's indexLiveMany has committed when it returns; an asynchronous one's is a promise.
    await Promise.all(
      bulk.map((index, i) => Promise.resolve(index.indexLiveMany(written.slice(i * slice, (i + 1) * slice)))),
    );
    return;
  }
  // An asynchronous engine's indexLive is a promise (a synchronous one's has committed already).
  await Promise.all(
    written.map((session, i) => Promise.resolve(search[i % search.length]!.indexLive(session))),
  );
}
