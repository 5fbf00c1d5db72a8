import { defined } from '@strand/session';
import {
  DEFAULT_LIST_PAGE_LIMIT,
  isPagedListCall,
  MAX_LIST_PAGE_LIMIT,
  type METHODS,
  type SearchResult,
  type SessionListRow,
} from '@strand/protocol';
import type { z } from 'zod';
import { listPage } from '../list/list-page.js';
import { cursorInvalid, sessionList } from '../methods/session-list.js';
import type { SearchPort } from '../ports.js';
import type { HostLimits, HostServices } from '../services.js';
import type { ShareGrant } from './grant-store.js';
import { grantCovers } from './share-scope.js';

type ListParams = z.output<(typeof METHODS)['session.list']['params']>;

/**
 * `session.list` on a share connection: the granted rows only, paged exactly as any listing
 * (`listPage` over them), so neither a row, a count nor a cursor tells of another session. With a
 * list index the granted rows are read by id (`session.list`'s `ids`), the subagent tree found
 * through the index's `parent` filter: nothing else of the corpus is read. Without one, every row
 * is built (as any listing there) and the granted ones kept.
 */
export async function sharedSessionList(
  services: HostServices,
  limits: HostLimits,
  grant: ShareGrant,
  params: ListParams,
  signal: AbortSignal,
): Promise<{ sessions: SessionListRow[]; nextCursor?: string }> {
  const { limit, cursor, ids, ...filter } = params;
  let granted =
    services.cache?.listIndex === undefined
      ? await grantedByScan(services, limits, grant, signal)
      : await grantedByIndex(services, limits, grant, signal);
  if (ids !== undefined) {
    const wanted = new Set(ids);
    granted = granted.filter((row) => wanted.has(row.id));
  }
  const page = listPage(granted, {
    filter,
    limit:
      ids !== undefined
        ? granted.length
        : (limit ?? (isPagedListCall(params) ? DEFAULT_LIST_PAGE_LIMIT : granted.length)),
    cursor,
  });
  if (page.kind === 'cursor-invalid') throw cursorInvalid(page.problem);
  return {
    sessions: [...page.rows],
    ...defined({ nextCursor: page.nextCursor }),
  };
}

/** The granted rows from the list index: the shared session and (with descendants) its subagent tree, by id. */
async function grantedByIndex(
  services: HostServices,
  limits: HostLimits,
  grant: ShareGrant,
  signal: AbortSignal,
): Promise<SessionListRow[]> {
  const ids = grant.descendants
    ? await subagentTree(services, limits, grant.sessionId, signal)
    : [grant.sessionId];
  const rows: SessionListRow[] = [];
  for (let from = 0; from < ids.length; from += MAX_LIST_PAGE_LIMIT)
    rows.push(
      ...(await sessionList(services, limits, { ids: ids.slice(from, from + MAX_LIST_PAGE_LIMIT) }, signal))
        .sessions,
    );
  return rows;
}

/**
 * `root` and every session below it by subagent parent links, breadth first, each level asked of
 * the index by the `parent` filter (the rule `grantCovers` applies: a fork is not a child).
 */
async function subagentTree(
  services: HostServices,
  limits: HostLimits,
  root: string,
  signal: AbortSignal,
): Promise<string[]> {
  const tree = [root];
  const seen = new Set(tree);
  for (let next = 0; next < tree.length; next++) {
    let cursor: string | undefined;
    do {
      const page = await sessionList(
        services,
        limits,
        { parent: tree[next]!, limit: MAX_LIST_PAGE_LIMIT, ...defined({ cursor }) },
        signal,
      );
      for (const row of page.sessions)
        if (!seen.has(row.id)) {
          seen.add(row.id);
          tree.push(row.id);
        }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }
  return tree;
}

/** The granted rows of a host without a list index: every row built, the covered ones kept. */
async function grantedByScan(
  services: HostServices,
  limits: HostLimits,
  grant: ShareGrant,
  signal: AbortSignal,
): Promise<SessionListRow[]> {
  const all = (await sessionList(services, limits, {}, signal)).sessions;
  const headers = new Map(all.map((row) => [row.id, row.header]));
  const headerOf = (id: string): Promise<SessionListRow['header'] | undefined> =>
    Promise.resolve(headers.get(id));
  const granted: SessionListRow[] = [];
  for (const row of all) if (await grantCovers(grant, row.id, headerOf)) granted.push(row);
  return granted;
}

/** Index pages read per shared search; past it the answer is what was found (a grant is a few sessions). */
const MAX_SEARCH_PAGES = 50;

/**
 * `session.search` on a share connection: the query's results over the granted sessions only,
 * in one answer without a cursor (the index's cursor would tell that other sessions matched).
 * It reads the index's pages until they end and keeps the granted results.
 */
export async function sharedSearch(
  search: SearchPort,
  covers: (id: string) => Promise<boolean>,
  query: string,
  options: {
    readonly cwd?: string;
    readonly projectName?: string;
    readonly harness?: string;
    readonly limit?: number;
  },
  signal: AbortSignal,
): Promise<{ results: SearchResult[] }> {
  const kept: SearchResult[] = [];
  const wanted = options.limit ?? Number.POSITIVE_INFINITY;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_SEARCH_PAGES && kept.length < wanted; page++) {
    const answer = await search.search(query, {
      limit: 100,
      ...defined({ cursor, cwd: options.cwd, projectName: options.projectName, harness: options.harness }),
      signal,
    });
    for (const result of answer.results) if (await covers(result.sessionId)) kept.push(result);
    if (answer.nextCursor === undefined) break;
    cursor = answer.nextCursor;
  }
  return { results: kept.slice(0, wanted) };
}
