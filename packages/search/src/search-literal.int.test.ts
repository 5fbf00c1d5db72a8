import { searchLiteralSuite } from './testing/literal-suite.js';
import { openSqliteUnderTest } from './test/sqlite-under-test.js';

searchLiteralSuite('SQLite FTS5', openSqliteUnderTest);
