import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteCacheRowStore } from '../sqlite-row-store.js';
import { CACHE_SCHEMA_VERSION } from '../schema.js';
import { header } from '../testing/fixtures.js';
import { listProjectNameOf } from './list-row.js';

describe('project name schema step', () => {
  it('a version-3 database gains project_name, filled from each row’s cwd, and pages filter by it', async () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE list_rows (
      session_id TEXT NOT NULL PRIMARY KEY, incarnation TEXT NOT NULL, header TEXT NOT NULL, hints TEXT,
      as_of_seq INTEGER, activity_at REAL NOT NULL, cwd TEXT, harness TEXT NOT NULL, parent TEXT, title TEXT,
      usage_as_of INTEGER)`);
    const insert = db.prepare(
      `INSERT INTO list_rows VALUES (?, 'inc-1', ?, NULL, NULL, ?, ?, 'strand', NULL, NULL, NULL)`,
    );
    insert.run('s1', JSON.stringify({ ...header('s1'), cwd: '/home/dev/strand/' }), 2, '/home/dev/strand/');
    insert.run('s2', JSON.stringify({ ...header('s2'), cwd: 'C:\\src\\strand' }), 1, 'C:\\src\\strand');
    insert.run('s3', JSON.stringify({ ...header('s3'), cwd: '/home/dev/web' }), 3, '/home/dev/web');
    insert.run('s4', JSON.stringify(header('s4')), 4, null);
    db.pragma('user_version = 3');
    const store = new SqliteCacheRowStore(db);
    expect(db.pragma('user_version', { simple: true })).toBe(CACHE_SCHEMA_VERSION);
    const page = await store.listIndex.page({ filter: { projectName: 'strand' }, limit: 10 });
    expect(page.map((row) => row.header.id)).toEqual(['s1', 's2']);
    expect(
      db.prepare('SELECT project_name FROM list_rows WHERE session_id = ?').pluck().get('s4'),
    ).toBeNull();
    store.close();
  });

  it('the last folder name drops trailing separators and splits on either kind', () => {
    expect(listProjectNameOf('/home/dev/strand')).toBe('strand');
    expect(listProjectNameOf('/home/dev/strand//')).toBe('strand');
    expect(listProjectNameOf('C:\\src\\web\\')).toBe('web');
    expect(listProjectNameOf('strand')).toBe('strand');
    expect(listProjectNameOf('/')).toBe('');
    expect(listProjectNameOf(undefined)).toBeNull();
  });
});
