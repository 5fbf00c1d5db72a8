import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteCacheRowStore } from '../sqlite-row-store.js';
import { CACHE_SCHEMA_VERSION } from '../schema.js';
import { header } from '../testing/fixtures.js';

describe('usage schema step', () => {
  it('a version-2 database gains usage_hours and usage_as_of, and its rows start with usage unknown', async () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE list_rows (
      session_id TEXT NOT NULL PRIMARY KEY, incarnation TEXT NOT NULL, header TEXT NOT NULL, hints TEXT,
      as_of_seq INTEGER, activity_at REAL NOT NULL, cwd TEXT, harness TEXT NOT NULL, parent TEXT, title TEXT)`);
    db.prepare(
      `INSERT INTO list_rows VALUES ('s1', 'inc-1', ?, NULL, NULL, 0, NULL, 'strand', NULL, NULL)`,
    ).run(JSON.stringify(header()));
    db.pragma('user_version = 2');
    const store = new SqliteCacheRowStore(db);
    expect(db.pragma('user_version', { simple: true })).toBe(CACHE_SCHEMA_VERSION);
    expect(await store.listIndex.usage({})).toEqual([]);
    store.listIndex.upsert({ header: header(), incarnation: 'inc-1', usage: { asOfSeq: 0, byHour: [] } });
    expect(await store.listIndex.usage({})).toMatchObject([{ id: 's1', byHour: [] }]);
    store.close();
  });
});
