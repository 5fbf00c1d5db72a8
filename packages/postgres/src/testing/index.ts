export { createTestDatabase, noPostgres, sqlOnce, testPgUrl, type TestDatabase } from './pg-test-database.js';
