// The search behaviour suites, shared by every engine (`@strand/search/testing`). Test code only:
// it imports vitest.
export { searchLiteralSuite } from './literal-suite.js';
export { searchPaginationSuite } from './pagination-suite.js';
export { searchSyncSuite } from './sync-suite.js';
export {
  disposedAfterEach,
  feedLive,
  withTestIndex,
  type OpenSearchIndex,
  type SearchIndexUnderTest,
  type TestIndexFixture,
} from './harness.js';
export {
  openTestCorpus,
  persistedSession,
  searchTestHeader,
  forkedSession,
  user,
  assistant,
  type TestCorpus,
  type ReadCounter,
} from './corpus.js';
export { searchLabelSuite, testLabeler, labelEvent } from './label-suite.js';
export { searchFacetSuite, testFacets, facetHeader, allPages } from './facet-suite.js';
export { searchForkSuite } from './fork-suite.js';
