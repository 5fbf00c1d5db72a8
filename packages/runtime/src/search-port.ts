import { defined } from '@strand/session';
import type { SearchPort } from '@strand/host';
import { DEFAULT_SEARCH_LIMIT, type SearchIndex } from '@strand/search';

/**
 * The host's search port over the index. Each result carries the session's title (the index's
 * label, which it read through its durable cut; `null` on an engine without labels). A `cwd`,
 * `projectName` or `harness` filter is passed to the index, which narrows inside its query to the sessions filed
 * under those facets (the header's, `@strand/stack`'s `sessionFacets`): a page holds up to
 * `limit` matching sessions, its cursor continues only that filtered search, and no call lists
 * the persisted headers. Each result also carries the facts the index filed its session under
 * (`cwd`, `harness`, its lineage), so a client describes it without following the session.
 */
export function searchPort(index: SearchIndex): SearchPort {
  return {
    async search(query, options) {
      const page = await index.search(query, {
        limit: options.limit ?? DEFAULT_SEARCH_LIMIT,
        ...defined({
          cursor: options.cursor,
          cwd: options.cwd,
          projectName: options.projectName,
          harness: options.harness,
          signal: options.signal,
        }),
      });
      const results = page.results.map((r) => ({
        sessionId: r.sessionId,
        title: r.label ?? null,
        hits: r.hits.map((h) => ({ seq: h.seq, snippet: h.snippet })),
        ...r.facts,
      }));
      return page.nextCursor === null ? { results } : { results, nextCursor: page.nextCursor };
    },
  };
}
