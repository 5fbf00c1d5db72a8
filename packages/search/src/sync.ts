import { isPersistenceError, type PersistedSessionSummary } from '@strand/persistence';
import { SessionSeq, type Session, type SessionId, defined } from '@strand/session';
import { SearchIndexError, throwIfSearchAborted } from './errors.js';
import type { SearchIndexStore } from './index-store.js';
import { INDEX_BATCH_EVENTS, indexMemory } from './memory-indexing.js';
import type { SessionRow } from './session-rows.js';
import { planLiveSync, planPersistedSync, type IndexMemoryPlan, type ReadSuffixPlan } from './sync-plan.js';
import type { SearchSources, SyncFailure, SyncOptions, SyncReport } from './types.js';

/** Sessions planned between two yields to the event loop when none needed an await. */
const YIELD_EVERY_SESSIONS = 256;

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Counters {
  updated: number;
  reindexed: number;
  dropped: number;
  eventsRead: number;
  eventsIndexed: number;
  rowsWritten: number;
  failures: SyncFailure[];
}

interface CorpusEntry {
  readonly sessionId: SessionId;
  readonly createdAt: number;
  readonly summary: PersistedSessionSummary | undefined;
}

/**
 * Brings the index up to date with the sources, then drops sessions that vanished (per-session
 * rules: sync-plan.ts). Sessions are visited in creation order, so new sessions get ascending keys
 * and "newer rank window first" means newer sessions first. Engine-neutral: it drives any
 * `SearchIndexStore` (SQLite, PostgreSQL).
 *
 * Plans are made from the bookkeeping rows read once, before the corpus is listed (one read, not
 * one per session); the store re-checks each plan against the row inside its transaction, so a
 * row changed since (a live append, another host sharing the index) costs at most a redundant
 * read, never a wrong row. Only rows already present in that view can be dropped as vanished: a
 * session indexed after the listing began (attached here, or created on another host) is kept.
 *
 * Failure is isolated: a session whose read fails is reported in `failures` and keeps its rows; a
 * session deleted between the listing and its read is dropped. Abort is checked before each
 * session and each batch; everything committed before stays (each batch is one transaction).
 */
export async function syncIndex(
  store: SearchIndexStore,
  sources: SearchSources,
  options: SyncOptions = {},
): Promise<SyncReport> {
  const { signal } = options;
  throwIfSearchAborted(signal, 'search index sync');
  const indexed = new Map<SessionId, SessionRow>();
  for (const row of await store.sessionRows()) indexed.set(row.sessionId, row);
  let summaries: PersistedSessionSummary[];
  try {
    summaries = await sources.persistence.list(defined({ signal }));
  } catch (error) {
    throw fromPersistence(error, 'listing the persisted corpus for search');
  }
  const corpus = new Map<SessionId, CorpusEntry>();
  for (const summary of summaries)
    corpus.set(summary.header.id, {
      sessionId: summary.header.id,
      createdAt: summary.header.createdAt,
      summary,
    });
  for (const session of sources.live?.list() ?? []) {
    if (!corpus.has(session.id))
      corpus.set(session.id, {
        sessionId: session.id,
        createdAt: session.header.createdAt,
        summary: undefined,
      });
  }
  // A continued export's exported prefix is its origin's when the origin is in the corpus, whatever
  // order the two are indexed in.
  const inCorpus = (session: string): boolean => corpus.has(session as SessionId);
  const ordered = [...corpus.values()].sort(
    (a, b) =>
      a.createdAt - b.createdAt || (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0),
  );

  const counters: Counters = {
    updated: 0,
    reindexed: 0,
    dropped: 0,
    eventsRead: 0,
    eventsIndexed: 0,
    rowsWritten: 0,
    failures: [],
  };
  const progress = (done: number): void =>
    options.onProgress?.({
      sessionsDone: done,
      sessionsTotal: ordered.length,
      eventsRead: counters.eventsRead,
      eventsIndexed: counters.eventsIndexed,
    });

  let sinceYield = 0;
  for (let i = 0; i < ordered.length; i++) {
    throwIfSearchAborted(signal, 'search index sync');
    const entry = ordered[i]!;
    const worked = await syncOne(
      store,
      sources,
      entry,
      indexed.get(entry.sessionId),
      counters,
      signal,
      inCorpus,
    );
    if (!worked && ++sinceYield >= YIELD_EVERY_SESSIONS) {
      sinceYield = 0;
      await nextTick();
    }
    progress(i + 1);
  }
  throwIfSearchAborted(signal, 'search index sync');
  for (const row of indexed.values()) {
    // Re-checked now: a session attached (and indexed live) after the listing is not gone.
    if (
      !corpus.has(row.sessionId) &&
      sources.live?.get(row.sessionId) === undefined &&
      (await store.drop(row.sessionId, row.sid))
    )
      counters.dropped++;
  }
  progress(ordered.length);
  return { sessions: ordered.length, ...counters };
}

/** Syncs one session; returns whether it awaited anything. */
async function syncOne(
  store: SearchIndexStore,
  sources: SearchSources,
  entry: CorpusEntry,
  row: SessionRow | undefined,
  counters: Counters,
  signal: AbortSignal | undefined,
  inCorpus: (session: string) => boolean,
): Promise<boolean> {
  // Live wins, checked at the moment of indexing rather than at listing time.
  const live = sources.live?.get(entry.sessionId);
  if (live !== undefined) {
    const plan = planLiveSync(row, { incarnation: live.incarnation ?? null, length: live.events.length });
    if (plan.kind === 'unchanged') return false;
    await indexLiveSession(store, live, plan, counters, signal);
    return true;
  }
  if (entry.summary === undefined) return false; // was live at listing time, detached since: the next sync reads it
  const plan = planPersistedSync(row, {
    incarnation: entry.summary.incarnation,
    revision: entry.summary.revision,
  });
  if (plan.kind === 'unchanged') return false;
  try {
    await readSuffix(
      store,
      sources,
      entry.sessionId,
      plan,
      row?.incarnation ?? null,
      counters,
      signal,
      inCorpus,
    );
  } catch (error) {
    if (error instanceof SearchIndexError) throw error;
    if (isPersistenceError(error, 'PERSISTENCE_NOT_FOUND')) {
      if (await store.drop(entry.sessionId)) counters.dropped++;
    } else if (isPersistenceError(error, 'PERSISTENCE_ABORTED')) {
      throw new SearchIndexError('SEARCH_ABORTED', 'search index sync was aborted', { cause: error });
    } else {
      counters.failures.push({
        sessionId: entry.sessionId,
        error: fromPersistence(error, `reading session ${entry.sessionId} for search`, entry.sessionId),
      });
    }
  }
  return true;
}

async function indexLiveSession(
  store: SearchIndexStore,
  session: Session,
  plan: IndexMemoryPlan,
  counters: Counters,
  signal: AbortSignal | undefined,
): Promise<void> {
  counters.updated++;
  if (plan.reset) counters.reindexed++;
  let before = { events: 0, rows: 0 };
  // No forced reset: `begin` resets by itself when the row it finds (not the plan's view of it) is
  // of another incarnation or longer than memory.
  await indexMemory(store, session, {}, async (step) => {
    counters.eventsIndexed += step.events - before.events;
    counters.rowsWritten += step.rows - before.rows;
    before = { ...step };
    await nextTick();
    throwIfSearchAborted(signal, 'search index sync');
  });
}

async function readSuffix(
  store: SearchIndexStore,
  sources: SearchSources,
  sessionId: SessionId,
  plan: ReadSuffixPlan,
  indexedIncarnation: string | null,
  counters: Counters,
  signal: AbortSignal | undefined,
  inCorpus: (session: string) => boolean,
): Promise<void> {
  let { from, start } = plan;
  let forced = false;
  for (;;) {
    const suffix = await sources.persistence.readFrom(sessionId, SessionSeq(from), defined({ signal }));
    counters.eventsRead += suffix.events.length;
    // A log shorter than the durable cut, or another incarnation under a kept cut, is not the log
    // that was indexed (deleted and recreated between listing and read): index it from 0.
    const consistent =
      start === 'reset' || (suffix.incarnation === indexedIncarnation && suffix.cursor >= from);
    if (!consistent && from > 0) {
      from = 0;
      start = 'reset';
      forced = true;
      continue;
    }
    forced ||= !consistent;
    counters.updated++;
    if (start === 'reset' || !consistent) counters.reindexed++;
    // Only a log seen to contradict the index forces a reset. A reset planned because the view had
    // no row, or another incarnation, is left to `begin`, which resets by itself when the row it
    // finds still disagrees — and keeps what another host indexed from this incarnation meanwhile.
    await store.begin(
      sessionId,
      suffix.incarnation,
      forced ? { kind: 'reset' } : start === 'truncate' ? { kind: 'truncate' } : { kind: 'keep' },
      suffix,
    );
    const events = suffix.events;
    if (events.length === 0) {
      await store.append(sessionId, suffix.incarnation, events, 'disk', suffix.revision);
      return;
    }
    for (let i = 0; i < events.length; i += INDEX_BATCH_EVENTS) {
      if (i > 0) {
        await nextTick();
        throwIfSearchAborted(signal, 'search index sync');
      }
      const last = i + INDEX_BATCH_EVENTS >= events.length;
      const outcome = await store.append(
        sessionId,
        suffix.incarnation,
        events.slice(i, i + INDEX_BATCH_EVENTS),
        'disk',
        last ? suffix.revision : undefined,
        inCorpus,
      );
      if (outcome.stale) return; // re-bound concurrently (a live attach re-indexed it): the next sync reconciles
      counters.eventsIndexed += outcome.events;
      counters.rowsWritten += outcome.rows;
    }
    return;
  }
}

function fromPersistence(error: unknown, what: string, sessionId?: SessionId): SearchIndexError {
  if (error instanceof SearchIndexError) return error;
  const options = { cause: error, ...defined({ sessionId }) };
  if (isPersistenceError(error, 'PERSISTENCE_ABORTED'))
    return new SearchIndexError('SEARCH_ABORTED', `${what} was aborted`, options);
  return new SearchIndexError(
    'SEARCH_PERSISTENCE_FAILED',
    `${what} failed: ${error instanceof Error ? error.message : String(error)}`,
    options,
  );
}
