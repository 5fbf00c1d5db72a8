import {
  DEFAULT_LIST_PAGE_LIMIT,
  isPagedListCall,
  MAX_WHOLE_LIST_LIMIT,
  type METHODS,
  type ProjectionHints,
  type SessionListRow,
} from '@strand/protocol';
import { asOfSeqAt, SessionLogOffset, type Session, defined } from '@strand/session';
import type { CorpusRow } from '@strand/query';
import type { z } from 'zod';
import { HostError } from '../errors.js';
import { indexPage, indexRowsById, type ListOverlay } from '../list/index-page.js';
import { listPage, type ListPageResult } from '../list/list-page.js';
import { isBusy, LIST_HINT_KEYS, type HostLimits, type HostServices } from '../services.js';

type ListParams = z.output<(typeof METHODS)['session.list']['params']>;

const NONE_ELSEWHERE: ReadonlySet<string> = new Set();

const PROBLEMS = {
  malformed: 'is malformed (not one session.list issued)',
  altered: 'was altered',
  'other-filter': 'was issued under another filter',
} as const;

/**
 * `session.list`: one page of rows in the documented order (last activity, then id), filtered,
 * after the cursor (`list/list-page.ts`). A call without a cursor or filter is the deprecated
 * whole list: every row up to its `limit`. With a list index (the projection cache's store keeps
 * one) the page is answered from it, the live sessions overlaid (`list/index-page.ts`): no header
 * is listed whole and no log is read. Without one, every header is listed and its row built here.
 * With `ids`, only those sessions' rows (by id from the index, or filtered from every row).
 */
export async function sessionList(
  services: HostServices,
  limits: HostLimits,
  params: ListParams,
  signal: AbortSignal,
): Promise<{ sessions: SessionListRow[]; nextCursor?: string }> {
  const { limit, cursor, ids, ...filter } = params;
  const paged = isPagedListCall(params);
  const index = services.cache?.listIndex;
  let page: ListPageResult<SessionListRow>;
  if (ids !== undefined) {
    // The rows a `list.changed` named, re-read: all in one page, filtered and in the list order.
    const wanted = new Set(ids);
    const rows =
      index !== undefined
        ? await indexRowsById(index, await overlay(services), wanted)
        : (await listRows(services, limits, signal)).filter((row) => wanted.has(row.id));
    page = listPage(rows, { filter, limit: wanted.size });
  } else if (index !== undefined) {
    page = await indexPage(index, await overlay(services), {
      filter,
      limit: limit ?? (paged ? DEFAULT_LIST_PAGE_LIMIT : MAX_WHOLE_LIST_LIMIT),
      cursor,
    });
  } else {
    const rows = await listRows(services, limits, signal);
    page = listPage(rows, {
      filter,
      limit: limit ?? (paged ? DEFAULT_LIST_PAGE_LIMIT : rows.length),
      cursor,
    });
  }
  if (page.kind === 'cursor-invalid') throw cursorInvalid(page.problem);
  return {
    sessions: [...page.rows],
    ...defined({ nextCursor: page.nextCursor }),
  };
}

/** The refusal of a cursor `listPage` could not use. */
export function cursorInvalid(problem: keyof typeof PROBLEMS): HostError {
  return new HostError(
    'HOST_LIST_CURSOR_INVALID',
    `the session.list cursor ${PROBLEMS[problem]}; list again from the first page`,
    { problem },
  );
}

/**
 * Every corpus header as a row with partial hints — the live watermark cache for attached
 * sessions, projection-cache rows for cold unseeded ones. When the cache cannot tell whether a
 * session is blank and its stored size is small, one bounded observation fills the hints;
 * otherwise hints stay missing (unknown) and the row stays visible (it sorts by `createdAt`).
 * With several hosts on one database, a cold session another host holds the lease of is marked
 * `ownedElsewhere` and `busy` (`live` keeps meaning "attached here"). Never activates an agent.
 */
async function listRows(
  services: HostServices,
  limits: HostLimits,
  signal: AbortSignal,
): Promise<SessionListRow[]> {
  const corpus = await services.query.listSessions({ signal });
  const elsewhere = await ownedElsewhere(services);
  const out: SessionListRow[] = [];
  for (const row of corpus) {
    const hints = row.live
      ? liveHints(services, row)
      : ((await coldHints(services, limits, row, signal)) ?? undefined);
    const ownedElsewhere = !row.live && elsewhere.has(row.header.id);
    out.push({
      id: row.header.id,
      header: row.header,
      live: row.live,
      busy: ownedElsewhere || (row.live && isBusy(services, row.header.id)),
      ...(ownedElsewhere ? { ownedElsewhere } : {}),
      ...defined({ hints }),
    });
  }
  return out;
}

/** What the host knows beside the index: its live rows, and the leases other hosts hold. */
async function overlay(services: HostServices): Promise<ListOverlay> {
  const elsewhere = await ownedElsewhere(services);
  return { live: services.store.list().map((session) => liveRow(services, session)), elsewhere };
}

/**
 * Cold sessions whose lease another host holds: one lease query per list call. A session live
 * here is ours, whatever a stale lease row says (the callers check `live` first).
 */
async function ownedElsewhere(services: HostServices): Promise<ReadonlySet<string>> {
  const elsewhere = await services.coordination?.ownedElsewhere();
  return elsewhere === undefined ? NONE_ELSEWHERE : new Set(elsewhere.keys());
}

/** A session live here, as a list row: its live hints, busy while its agent works. */
function liveRow(services: HostServices, session: Session): SessionListRow {
  const hints = snapshotHints(services, session);
  return {
    id: session.id,
    header: session.header,
    live: true,
    busy: isBusy(services, session.id),
    ...defined({ hints }),
  };
}

function liveHints(services: HostServices, row: CorpusRow): ProjectionHints | undefined {
  const session = services.store.get(row.header.id);
  return session === undefined ? undefined : snapshotHints(services, session);
}

function snapshotHints(services: HostServices, session: Session): ProjectionHints | undefined {
  try {
    return services.registry.snapshot(session, LIST_HINT_KEYS);
  } catch {
    // A failed fold is not a list error: the row stays visible with unknown hints.
    return undefined;
  }
}

async function coldHints(
  services: HostServices,
  limits: HostLimits,
  row: CorpusRow,
  signal: AbortSignal,
): Promise<ProjectionHints | undefined> {
  let hints: ProjectionHints | undefined;
  // The cache identity needs the exact inherited cut; a header only proves it for unseeded sessions.
  if (services.cache !== undefined && row.incarnation !== undefined && !row.header.isSeeded) {
    hints = services.cache.cachedSnapshot(
      { header: row.header, incarnation: row.incarnation },
      SessionLogOffset(0),
      LIST_HINT_KEYS,
    );
  }
  const knowsBlank = hints !== undefined && Object.hasOwn(hints.values, 'listMetadata');
  if (knowsBlank || row.storedBytes === undefined || row.storedBytes > limits.smallLogBytes) return hints;
  try {
    const observation = await services.query.observeSession(row.header.id, { projectionMode: 'all', signal });
    try {
      const values: Record<string, unknown> = {};
      for (const key of LIST_HINT_KEYS)
        if (observation.projections !== undefined && Object.hasOwn(observation.projections.values, key))
          values[key] = observation.projections.values[key];
      return { asOfSeq: asOfSeqAt(observation.cursor), values };
    } finally {
      observation.dispose();
    }
  } catch {
    // Unreadable small logs keep whatever hints the cache had; the row stays visible.
    return hints;
  }
}
