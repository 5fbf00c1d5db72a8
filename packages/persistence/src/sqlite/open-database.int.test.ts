/**
 * Two processes opening one fresh session database at once (a reader beside the writer that
 * creates it): the other opener runs at the worst moment, between the first one's format reads,
 * on its own connection, as another process would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOutcome, runAfterPragma } from '@strand/test-support';
import { openDatabase } from './open-database.js';
import { SQLITE_APPLICATION_ID, SQLITE_SCHEMA_VERSION } from './schema.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'strand-sqlite-open-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('opening a fresh session database beside another opener', () => {
  it('another process initializing it between the first one’s format reads never makes the first refuse it', () => {
    const file = path.join(dir, 'sessions.db');
    let other = 'not run';
    const db = openDatabase(file, (name) =>
      runAfterPragma(new Database(name), 'application_id', () => {
        other = openOutcome(() => openDatabase(file, (n) => new Database(n, { timeout: 0 })).close());
      }),
    );
    db.close();
    // The other met the first one's read lock (a real process waits the moment it lasts), and
    // the first saw one state of the file: fresh, initialized by itself.
    expect(other).toBe('SQLITE_BUSY');
    expect(openOutcome(() => openDatabase(file, (n) => new Database(n, { timeout: 0 })).close())).toBe(
      'opened',
    );
    const check = new Database(file, { readonly: true });
    expect(check.pragma('application_id', { simple: true })).toBe(SQLITE_APPLICATION_ID);
    expect(check.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    check.close();
  });
});
