import {
  usageAt,
  type ListIdentity,
  type ListIndexStore,
  type ListRowHints,
  type ListRowUsage,
  type ProjectionCache,
} from '@strand/projection-cache';
import {
  compareSessionIds,
  type PersistedSessionSummary,
  type SessionPersistence,
} from '@strand/persistence';
import type { SessionQuery } from '@strand/query';
import { asOfSeqAt, SessionId, type Logger, type SessionStore } from '@strand/session';
import { LIST_HINT_KEYS } from '../services.js';

/** What reconciling needs: the corpus, the cache keeping the index, and the live sessions to skip. */
export interface ListReconcileDeps {
  readonly persistence: Pick<SessionPersistence, 'listChunks'>;
  readonly query: Pick<SessionQuery, 'observeSession'>;
  readonly cache: ProjectionCache;
  readonly store: Pick<SessionStore, 'has'>;
  readonly logger: Logger;
}

export interface ListReconcileResult {
  /** Sessions that got a row (missing, or of another incarnation): header facts at once. */
  readonly noted: number;
  /** Rows dropped: their session is no longer stored. */
  readonly dropped: number;
  /** Cold sessions whose hints or usage hours are still unknown: `foldListHints` gives them theirs. */
  readonly unfolded: readonly string[];
}

/** Progress goes to the log every this many sessions (a first run over a large corpus is long). */
const PROGRESS_EVERY = 1000;

/**
 * Stored summaries and index identities are read this many at a time: reconciling holds a chunk
 * of each, never the corpus (issue 41: a host over a million sessions).
 */
export const RECONCILE_CHUNK = 1000;

/**
 * Brings the list index in line with persistence, once, when the host opens: a session stored but
 * missing from the index (an older data folder, a crash between an append and its row write, a
 * session written by another tool) or there under another incarnation gets a row with its header
 * facts at once, so a page is never silently short; a row whose session is no longer stored is
 * dropped. No log is read. Rows whose hints are unknown are returned for `foldListHints`, which can
 * run after the host serves (until then they sort by `createdAt`).
 *
 * Both sides are walked in id order, `chunk` at a time (`persistence.listChunks`, the index's
 * keyset `identities` pages), and merged like two sorted lists, so memory holds two chunks however
 * large the corpus. Rows written during the walk are behind the index's page cursor (a row is
 * written for the stored id the merge stands on, after every row before it was read), so the walk
 * never meets its own writes.
 */
export async function reconcileListIndex(
  deps: ListReconcileDeps,
  chunk: number = RECONCILE_CHUNK,
): Promise<ListReconcileResult> {
  const index = deps.cache.listIndex;
  // A cache store that keeps no list index lists from every header instead.
  if (index === undefined) return { noted: 0, dropped: 0, unfolded: [] };
  const rows = inOrder('list index', walkIdentities(index, chunk), (row) => row.sessionId);
  let sessions = 0;
  let noted = 0;
  let dropped = 0;
  const unfolded: string[] = [];
  /** A row with no stored session: dropped, unless the session is live (not stored yet). */
  const dropUnstored = (id: string) => {
    if (deps.store.has(SessionId(id))) return;
    index.forget(id);
    dropped++;
  };
  let row = await rows.next();
  const stored = inOrder('persistence', summariesOf(deps.persistence, chunk), (s) => s.header.id);
  for await (const summary of stored) {
    const id = summary.header.id;
    sessions++;
    while (!row.done && compareSessionIds(row.value.sessionId, id) < 0) {
      dropUnstored(row.value.sessionId);
      row = await rows.next();
    }
    const indexed = !row.done && row.value.sessionId === id ? row.value : undefined;
    if (indexed !== undefined) row = await rows.next();
    const sameIncarnation = indexed?.incarnation === summary.incarnation;
    if (!sameIncarnation) {
      deps.cache.noteSession(summary);
      noted++;
    }
    // Unknown usage hours too (a cache file from before them): the same fold writes both.
    const unknown = !sameIncarnation || indexed.asOfSeq === null || !indexed.usageKnown;
    if (unknown && !deps.store.has(summary.header.id)) unfolded.push(id);
  }
  for (; !row.done; row = await rows.next()) dropUnstored(row.value.sessionId);
  if (noted > 0 || dropped > 0 || unfolded.length > 0)
    deps.logger.info('list index reconciled with the stored sessions', {
      sessions,
      noted,
      dropped,
      unfolded: unfolded.length,
    });
  return { noted, dropped, unfolded };
}

/** Every row's identity, in id order, one keyset page at a time. */
async function* walkIdentities(index: ListIndexStore, limit: number): AsyncGenerator<ListIdentity> {
  for (let after = ''; ; ) {
    const page = await index.identities({ after, limit });
    yield* page;
    if (page.length < limit) return;
    after = page.at(-1)!.sessionId;
  }
}

async function* summariesOf(
  persistence: Pick<SessionPersistence, 'listChunks'>,
  chunk: number,
): AsyncGenerator<PersistedSessionSummary> {
  for await (const summaries of persistence.listChunks({ chunk })) yield* summaries;
}

/**
 * `items`, checked to ascend strictly in id order: the merge is only right over two walks in one
 * order, so a store that broke it fails the reconcile instead of dropping rows of stored sessions.
 */
async function* inOrder<T>(
  what: string,
  items: AsyncIterable<T>,
  idOf: (item: T) => string,
): AsyncGenerator<T, void, undefined> {
  let previous: string | undefined;
  for await (const item of items) {
    const id = idOf(item);
    if (previous !== undefined && compareSessionIds(previous, id) >= 0)
      throw new Error(
        `${what} walked ${JSON.stringify(id)} after ${JSON.stringify(previous)}: not in id order`,
      );
    previous = id;
    yield item;
  }
}

/**
 * Folds the hints (and usage hours) of these sessions into their list rows, one at a time, through the query (a
 * tail read where cache rows exist, else one whole-log fold; cache rows are left to their own
 * writers): the values are those of the durable log's end, never ahead of it. `stopped()` is asked
 * between sessions (the host is closing). A session that fails keeps its header-only row and is
 * logged. Resolves with how many got hints.
 */
export async function foldListHints(
  deps: ListReconcileDeps,
  ids: readonly string[],
  stopped: () => boolean = () => false,
): Promise<number> {
  let folded = 0;
  for (const [i, id] of ids.entries()) {
    if (stopped()) break;
    if (i > 0 && i % PROGRESS_EVERY === 0)
      deps.logger.info('folding list hints', { done: i, of: ids.length });
    try {
      const observation = await deps.query.observeSession(SessionId(id), {
        projectionMode: 'all',
        window: { last: 1 },
        retainPrepared: false,
      });
      try {
        if (observation.source === 'cold' && observation.incarnation !== undefined) {
          const values = observation.projections?.values;
          const asOfSeq = asOfSeqAt(observation.cursor);
          deps.cache.noteSession(
            { header: observation.header, incarnation: observation.incarnation },
            hintsOf(values, asOfSeq),
            usageOf(values, asOfSeq),
          );
          folded++;
        }
      } finally {
        observation.dispose();
      }
    } catch (error) {
      deps.logger.warn("a session's list hints could not be folded; its row keeps header facts", {
        sessionId: id,
        error,
      });
    }
    // Yield between sessions, so the host's own work goes first.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (ids.length > 0) deps.logger.info('list hints folded', { folded, of: ids.length });
  return folded;
}

/** A list row's hints from a fold's values: the list keys the fold knows, labelled with its cut. */
export function hintsOf(
  values: Readonly<Record<string, unknown>> | undefined,
  asOfSeq: number,
): ListRowHints {
  const picked: Record<string, unknown> = {};
  for (const key of LIST_HINT_KEYS)
    if (values !== undefined && Object.hasOwn(values, key)) picked[key] = values[key];
  return { asOfSeq, values: picked };
}

/** A list row's usage hours from a fold's values, labelled with its cut; undefined when it has no `usage`. */
export function usageOf(
  values: Readonly<Record<string, unknown>> | undefined,
  asOfSeq: number,
): ListRowUsage | undefined {
  return values !== undefined && Object.hasOwn(values, 'usage') ? usageAt(values.usage, asOfSeq) : undefined;
}
