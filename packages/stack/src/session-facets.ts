import type { FacetExtractor } from '@strand/search';

/**
 * The facets the search index files a session under — where the index's `cwd`/`harness` filters
 * meet the header's vocabulary, which the index does not learn: the project is the header's `cwd`
 * (absent: filed under no project), the harness the importer's `source.harness`, `'strand'` for a
 * session Strand itself ran (no `source`) — the same rule the session list's harness filter uses.
 */
export const sessionFacets: FacetExtractor = (header) => ({
  cwd: header.cwd,
  harness: header.source?.harness ?? 'strand',
});
