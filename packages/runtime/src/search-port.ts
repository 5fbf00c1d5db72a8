import type { SearchPort } from '@strand/host';
import type { SessionPersistence } from '@strand/persistence';
import type { SearchHarness, SearchResult } from '@strand/protocol';
import { DEFAULT_SEARCH_LIMIT, type SearchIndex } from '@strand/search';
import type { SessionHeader, SessionId, SessionStore } from '@strand/session';

/**
 * Unfiltered index pages one filtered `session.search` call reads at most. A narrow filter over a
 * broad query may then return a short (even empty) page with a cursor — the wire contract says so —
 * rather than scanning the whole result set in one call.
 */
export const MAX_FILTERED_PAGES = 8;

/** Where the headers of the sessions a filter looks at come from. */
export interface SearchHeaderSources {
  readonly persistence: Pick<SessionPersistence, 'list'>;
  readonly store: Pick<SessionStore, 'get'>;
}

export interface SearchFilter {
  readonly cwd?: string | undefined;
  readonly harness?: SearchHarness | undefined;
}

/**
 * The host's search port over the index. Each result carries the session's title (the index's
 * label, which it read through its durable cut; `null` on an engine without labels). With a
 * `cwd` or `harness` filter, index pages are read in order and only the sessions whose header
 * matches are kept: a page never holds more than `limit` results and its cursor continues right
 * after the last index page read, so pages never repeat or skip a session.
 */
export function searchPort(index: SearchIndex, headers: SearchHeaderSources): SearchPort {
  return {
    async search(query, options) {
      const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
      const filter: SearchFilter = { cwd: options.cwd, harness: options.harness };
      const filtered = filter.cwd !== undefined || filter.harness !== undefined;
      const headerOf = filtered ? await headerLookup(headers, options.signal) : undefined;
      const results: SearchResult[] = [];
      let cursor = options.cursor;
      for (let pages = 0; pages < (filtered ? MAX_FILTERED_PAGES : 1); pages++) {
        const page = await index.search(query, {
          limit: limit - results.length,
          ...(cursor === undefined ? {} : { cursor }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
        for (const r of page.results) {
          if (headerOf !== undefined && !matchesFilter(headerOf(r.sessionId), filter)) continue;
          results.push({
            sessionId: r.sessionId,
            title: r.label ?? null,
            hits: r.hits.map((h) => ({ seq: h.seq, snippet: h.snippet })),
          });
        }
        cursor = page.nextCursor ?? undefined;
        if (cursor === undefined || results.length >= limit) break;
      }
      return cursor === undefined ? { results } : { results, nextCursor: cursor };
    },
  };
}

/** Whether a session's header passes the filter; a session whose header is unknown never does. */
export function matchesFilter(header: SessionHeader | undefined, filter: SearchFilter): boolean {
  if (header === undefined) return false;
  if (filter.cwd !== undefined && header.cwd !== filter.cwd) return false;
  if (filter.harness !== undefined && (header.source?.harness ?? 'strand') !== filter.harness) return false;
  return true;
}

/** One listing per filtered call; a live session's header wins (it may not be persisted yet). */
async function headerLookup(
  sources: SearchHeaderSources,
  signal: AbortSignal | undefined,
): Promise<(id: string) => SessionHeader | undefined> {
  const persisted = new Map<string, SessionHeader>();
  for (const summary of await sources.persistence.list(signal === undefined ? {} : { signal }))
    persisted.set(summary.header.id, summary.header);
  return (id) => sources.store.get(id as SessionId)?.header ?? persisted.get(id);
}
