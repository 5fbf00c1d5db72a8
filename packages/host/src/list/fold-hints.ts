import { usageAt, type ListIndexStore, type ListRowHints, type ListRowUsage } from '@strand/projection-cache';
import { asOfSeqAt, SessionId } from '@strand/session';
import { LIST_HINT_KEYS } from '../services.js';
import { RECONCILE_CHUNK, walkIdentities, type ListReconcileDeps } from './reconcile.js';

/** Progress goes to the log every this many sessions (a first run over a large corpus is long). */
const PROGRESS_EVERY = 1000;

/**
 * Folds the hints (and usage hours) of every row the index holds with either unknown — rows the
 * reconcile noted, rows an earlier fold did not reach (the host closed first) or failed on —
 * reading them from the index in keyset pages (`unfoldedIds`, else `identities` filtered), so
 * memory holds a page of ids, never one per session. Live sessions are skipped (their own writes
 * give their rows hints). A row that stays unknown (its fold failed) is passed, not retried, in
 * this run. `stopped()` is asked between sessions. Resolves with how many got hints.
 */
export async function foldUnfoldedListHints(
  deps: ListReconcileDeps,
  stopped: () => boolean = () => false,
  chunk: number = RECONCILE_CHUNK,
): Promise<number> {
  const index = deps.cache.listIndex;
  if (index === undefined) return 0;
  let seen = 0;
  let folded = 0;
  for await (const id of unfoldedIdsOf(index, chunk)) {
    if (stopped()) break;
    if (deps.store.has(SessionId(id))) continue;
    if (seen > 0 && seen % PROGRESS_EVERY === 0) deps.logger.info('folding list hints', { done: seen });
    seen++;
    if (await foldOne(deps, id)) folded++;
  }
  if (seen > 0) deps.logger.info('list hints folded', { folded, of: seen });
  return folded;
}

/** The ids of the rows with unknown hints or usage, in id order, a keyset page at a time. */
async function* unfoldedIdsOf(index: ListIndexStore, limit: number): AsyncGenerator<string> {
  if (index.unfoldedIds === undefined) {
    for await (const row of walkIdentities(index, limit))
      if (row.asOfSeq === null || !row.usageKnown) yield row.sessionId;
    return;
  }
  for (let after = ''; ; ) {
    const page = await index.unfoldedIds({ after, limit });
    yield* page;
    if (page.length < limit) return;
    after = page.at(-1)!;
  }
}

/**
 * Folds the hints (and usage hours) of these sessions into their list rows, one at a time (see
 * `foldOne`). `stopped()` is asked between sessions (the host is closing). Resolves with how many
 * got hints.
 */
export async function foldListHints(
  deps: ListReconcileDeps,
  ids: readonly string[],
  stopped: () => boolean = () => false,
): Promise<number> {
  let folded = 0;
  for (const id of ids) {
    if (stopped()) break;
    if (await foldOne(deps, id)) folded++;
  }
  return folded;
}

/**
 * Folds one session's hints (and usage hours) into its list row through the query (a tail read
 * where cache rows exist, else one whole-log fold; cache rows are left to their own writers): the
 * values are those of the durable log's end, never ahead of it. A session that fails keeps its
 * header-only row and is logged. Yields to the event loop after, so the host's own work goes
 * first. Resolves with whether the row got hints.
 */
async function foldOne(deps: ListReconcileDeps, id: string): Promise<boolean> {
  let folded = false;
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
        folded = true;
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
  await new Promise<void>((resolve) => setImmediate(resolve));
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
