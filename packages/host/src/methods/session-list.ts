import {
  DEFAULT_LIST_PAGE_LIMIT,
  isPagedListCall,
  type METHODS,
  type ProjectionHints,
  type SessionListRow,
} from '@strand/protocol';
import { asOfSeqAt, SessionLogOffset } from '@strand/session';
import type { CorpusRow } from '@strand/query';
import type { z } from 'zod';
import { HostError } from '../errors.js';
import { listPage } from '../list/list-page.js';
import { LIST_HINT_KEYS, type HostLimits, type HostServices } from '../services.js';

type ListParams = z.output<(typeof METHODS)['session.list']['params']>;

const NONE_ELSEWHERE: ReadonlyMap<string, unknown> = new Map();

const PROBLEMS = {
  malformed: 'is malformed (not one session.list issued)',
  altered: 'was altered',
  'other-filter': 'was issued under another filter',
} as const;

/**
 * `session.list`: one page of rows in the documented order (last activity, then id), filtered,
 * after the cursor (`list/list-page.ts`). A call without a cursor or filter is the deprecated
 * whole list: every row up to its `limit`. The rows are still built from every header here; the
 * list index (issue 41, item 1) is to answer the same page from the store.
 */
export async function sessionList(
  services: HostServices,
  limits: HostLimits,
  params: ListParams,
  signal: AbortSignal,
): Promise<{ sessions: SessionListRow[]; nextCursor?: string }> {
  const rows = await listRows(services, limits, signal);
  const { limit, cursor, ...filter } = params;
  const page = listPage(rows, {
    filter,
    limit: limit ?? (isPagedListCall(params) ? DEFAULT_LIST_PAGE_LIMIT : rows.length),
    cursor,
  });
  if (page.kind === 'cursor-invalid')
    throw new HostError(
      'HOST_LIST_CURSOR_INVALID',
      `the session.list cursor ${PROBLEMS[page.problem]}; list again from the first page`,
      {
        problem: page.problem,
      },
    );
  return {
    sessions: [...page.rows],
    ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
  };
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
  // One lease query per list call; a session live here is ours, whatever a stale row says.
  const elsewhere = (await services.coordination?.ownedElsewhere()) ?? NONE_ELSEWHERE;
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
      busy: ownedElsewhere || (row.live && (services.agents?.isBusy(row.header.id) ?? false)),
      ...(ownedElsewhere ? { ownedElsewhere } : {}),
      ...(hints === undefined ? {} : { hints }),
    });
  }
  return out;
}

function liveHints(services: HostServices, row: CorpusRow): ProjectionHints | undefined {
  const session = services.store.get(row.header.id);
  if (session === undefined) return undefined;
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
