import type { ListIdentity, ListIndexStore, ProjectionCache } from '@strand/projection-cache';
import {
  compareSessionIds,
  type PersistedSessionSummary,
  type SessionPersistence,
} from '@strand/persistence';
import type { SessionQuery } from '@strand/query';
import { SessionId, type Logger, type SessionStore } from '@strand/session';

/** What reconciling needs: the corpus, the cache keeping the index, and the live sessions to skip. */
export interface ListReconcileDeps {
  readonly persistence: Pick<SessionPersistence, 'listChunks' | 'changeMarker'>;
  readonly query: Pick<SessionQuery, 'observeSession'>;
  readonly cache: ProjectionCache;
  readonly store: Pick<SessionStore, 'has'>;
  readonly logger: Logger;
}

export interface ListReconcileResult {
  /**
   * Whether the corpus was walked: false when persistence's change marker equals the one the last
   * completed walk recorded (nothing was created, deleted or re-created since).
   */
  readonly walked: boolean;
  /** Sessions that got a row (missing, or of another incarnation): header facts at once. */
  readonly noted: number;
  /** Rows dropped: their session is no longer stored. */
  readonly dropped: number;
  /**
   * Cold sessions the walk found with hints or usage hours unknown (0 when it did not walk):
   * `foldUnfoldedListHints` finds them in the index and gives them theirs.
   */
  readonly unfolded: number;
}

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
 * dropped. No log is read. Rows whose hints are unknown stay so for `foldUnfoldedListHints`, which
 * can run after the host serves (until then they sort by `createdAt`).
 *
 * Both sides are walked in id order, `chunk` at a time (`persistence.listChunks`, the index's
 * keyset `identities` pages), and merged like two sorted lists, so memory holds two chunks however
 * large the corpus. Rows written during the walk are behind the index's page cursor (a row is
 * written for the stored id the merge stands on, after every row before it was read), so the walk
 * never meets its own writes.
 *
 * **Skipping the walk** (issue 41: start-up over a million sessions). Persistence's change marker
 * (`SessionPersistence.changeMarker`) moves with every session stored, deleted or re-created, by
 * any writer, in the writing transaction. The walk reads it *before* it starts and records it in
 * the index (`recordReconciledMarker`) only *after* it completed, every row it wrote committed. So:
 * - every change the recorded marker accounts for was committed before the read, hence seen by
 *   the walk, which gave its session a row (or dropped the row of a deleted one): an index whose
 *   recorded marker equals persistence's holds a row for every stored session, and an open that
 *   finds them equal skips the walk;
 * - a change after the read (during the walk or later, by this host, another host or another tool)
 *   moves persistence's marker past the recorded one, so the next open walks and repairs what the
 *   change's own row write missed — notably a crash between a create and its list row
 *   (`listingPersistence` writes the row after the create is durable): that create moved the
 *   marker, and nothing records a marker that includes it without a walk after it;
 * - a walk that fails records nothing; a marker dropped from the index (`clear`, a row deleted)
 *   or never recorded (an older index) means walk.
 * The host never records a marker for its own creates and deletes, though it writes their rows:
 * it cannot tell that no other writer changed the corpus meanwhile. So an open after a run that
 * created or deleted sessions walks once more. Without a marker (a backend that cannot tell, a
 * list index that keeps none) every open walks, as before.
 */
export async function reconcileListIndex(
  deps: ListReconcileDeps,
  chunk: number = RECONCILE_CHUNK,
): Promise<ListReconcileResult> {
  const index = deps.cache.listIndex;
  // A cache store that keeps no list index lists from every header instead.
  if (index === undefined) return { walked: false, noted: 0, dropped: 0, unfolded: 0 };
  const marker = await readMarker(deps, index);
  if (marker.current !== undefined && marker.current === marker.recorded) {
    deps.logger.info('list index unchanged since its last reconcile: no walk', { marker: marker.current });
    return { walked: false, noted: 0, dropped: 0, unfolded: 0 };
  }
  const walk = await walkCorpus(deps, index, chunk);
  // After the walk: every row it wrote was committed when its write returned.
  if (marker.current !== undefined) index.recordReconciledMarker?.(marker.current);
  return { walked: true, ...walk };
}

/** Persistence's marker now, and the index's recorded one; `current` undefined: cannot skip. */
async function readMarker(
  deps: ListReconcileDeps,
  index: ListIndexStore,
): Promise<{ current: string | undefined; recorded: string | undefined }> {
  // An index that records nothing could never skip: the marker is not even read.
  if (index.recordReconciledMarker === undefined || index.reconciledMarker === undefined)
    return { current: undefined, recorded: undefined };
  const current = await deps.persistence.changeMarker?.();
  return { current, recorded: current === undefined ? undefined : await index.reconciledMarker() };
}

/** The merge of the two walks (see `reconcileListIndex`). */
async function walkCorpus(
  deps: ListReconcileDeps,
  index: ListIndexStore,
  chunk: number,
): Promise<Omit<ListReconcileResult, 'walked'>> {
  const rows = inOrder('list index', walkIdentities(index, chunk), (row) => row.sessionId);
  let sessions = 0;
  let noted = 0;
  let dropped = 0;
  let unfolded = 0;
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
    if (unknown && !deps.store.has(summary.header.id)) unfolded++;
  }
  for (; !row.done; row = await rows.next()) dropUnstored(row.value.sessionId);
  if (noted > 0 || dropped > 0 || unfolded > 0)
    deps.logger.info('list index reconciled with the stored sessions', {
      sessions,
      noted,
      dropped,
      unfolded,
    });
  return { noted, dropped, unfolded };
}

/** Every row's identity, in id order, one keyset page at a time. */
export async function* walkIdentities(index: ListIndexStore, limit: number): AsyncGenerator<ListIdentity> {
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
