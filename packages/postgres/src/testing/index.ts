export { createTestDatabase, noPostgres, testPgUrl, type TestDatabase } from './pg-test-database.js';
