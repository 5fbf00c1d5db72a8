import { defined } from '@strand/session';
import {
  DEFAULT_LIST_PAGE_LIMIT,
  isPagedListCall,
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
 * (`listPage` over them), so neither a row, a count nor a cursor tells of another session. It
 * lists the whole corpus first (a grant covers a handful of sessions; issue 42 leaves a
 * grant-indexed listing for later).
 */
export async function sharedSessionList(
  services: HostServices,
  limits: HostLimits,
  grant: ShareGrant,
  params: ListParams,
  signal: AbortSignal,
): Promise<{ sessions: SessionListRow[]; nextCursor?: string }> {
  const { limit, cursor, ...filter } = params;
  const all = (await sessionList(services, limits, {}, signal)).sessions;
  const headers = new Map(all.map((row) => [row.id, row.header]));
  const headerOf = (id: string): Promise<SessionListRow['header'] | undefined> =>
    Promise.resolve(headers.get(id));
  const granted: SessionListRow[] = [];
  for (const row of all) if (await grantCovers(grant, row.id, headerOf)) granted.push(row);
  const page = listPage(granted, {
    filter,
    limit: limit ?? (isPagedListCall(params) ? DEFAULT_LIST_PAGE_LIMIT : granted.length),
    cursor,
  });
  if (page.kind === 'cursor-invalid') throw cursorInvalid(page.problem);
  return {
    sessions: [...page.rows],
    ...defined({ nextCursor: page.nextCursor }),
  };
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
  options: { readonly cwd?: string; readonly harness?: string; readonly limit?: number },
  signal: AbortSignal,
): Promise<{ results: SearchResult[] }> {
  const kept: SearchResult[] = [];
  const wanted = options.limit ?? Number.POSITIVE_INFINITY;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_SEARCH_PAGES && kept.length < wanted; page++) {
    const answer = await search.search(query, {
      limit: 100,
      ...defined({ cursor, cwd: options.cwd, harness: options.harness }),
      signal,
    });
    for (const result of answer.results) if (await covers(result.sessionId)) kept.push(result);
    if (answer.nextCursor === undefined) break;
    cursor = answer.nextCursor;
  }
  return { results: kept.slice(0, wanted) };
}
