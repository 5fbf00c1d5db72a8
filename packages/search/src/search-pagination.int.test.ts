import { searchPaginationSuite } from './testing/pagination-suite.js';
import { openSqliteUnderTest } from './test/sqlite-under-test.js';

searchPaginationSuite('SQLite FTS5', openSqliteUnderTest);
