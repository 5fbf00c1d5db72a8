/**
 * Two processes opening one cache file at once (the CLI's readers beside an import each open it):
 * the other opener runs at the worst moment, between the first one's column check and its
 * `ALTER TABLE`, on its own connection, as another process would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOutcome, runAfterPragma } from '@strand/test-support';
import { SqliteCacheRowStore } from './sqlite-row-store.js';
import { CACHE_SCHEMA_VERSION } from './schema.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'strand-cache-schema-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Another process's whole open of the file, without waiting for a lock. */
function openOther(file: string): void {
  const db = new Database(file, { timeout: 0 });
  try {
    new SqliteCacheRowStore(db).close();
  } finally {
    db.close();
  }
}

describe('cache schema preparation under concurrent openers', () => {
  it.each(['table_info(list_rows)', 'user_version'])(
    'another opener right after the first read %s never makes the first fail, nor prepares beside it',
    (trigger) => {
      const file = path.join(dir, 'cache.db');
      let other = 'not run';
      const first = runAfterPragma(new Database(file), trigger, () => {
        other = openOutcome(() => openOther(file));
      });
      new SqliteCacheRowStore(first).close();
      // Serialized: the other met the first one's lock (a real process waits for it there).
      expect(other).toBe('SQLITE_BUSY');
      // Afterwards it opens the prepared file as it is.
      expect(openOutcome(() => openOther(file))).toBe('opened');
      const check = new Database(file, { readonly: true });
      expect(check.pragma('user_version', { simple: true })).toBe(CACHE_SCHEMA_VERSION);
      const columns = (check.pragma('table_info(list_rows)') as { name: string }[]).map((c) => c.name);
      expect(columns).toEqual(expect.arrayContaining(['usage_as_of', 'project_name']));
      check.close();
    },
  );
});
