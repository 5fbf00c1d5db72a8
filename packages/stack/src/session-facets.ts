import type { FacetExtractor } from '@strand/search';
import { sessionHarness } from '@strand/session';

/**
 * The facets the search index files a session under — where the index's `cwd`/`harness` filters
 * meet the header's vocabulary, which the index does not learn: the project is the header's `cwd`
 * (absent: filed under no project), the harness the importer's `source.harness`, `'strand'` for a
 * session Strand itself ran (no `source`) — `sessionHarness`, the rule every harness filter uses.
 * Its lineage (`parentSession`, `origin`, `forkedFrom`) is stored to describe results, not to filter.
 */
export const sessionFacets: FacetExtractor = (header) => ({
  cwd: header.cwd,
  harness: sessionHarness(header),
  // Where it came from, so a search result is described without reading the session's log.
  parentSession: header.parentSession,
  origin: header.origin,
  forkedFrom: header.forkedFrom,
});
