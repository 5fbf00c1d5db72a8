/**
 * Two processes opening one search index at once (the CLI's readers beside an import each open
 * it): the other opener runs at the worst moment, right after one of the first one's format
 * reads, on its own connection, as another process would.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOutcome, runAfterPragma } from '@strand/test-support';
import { openSearchDatabase, SEARCH_SCHEMA_VERSION } from './schema.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'strand-search-schema-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Another process's whole open of the index, without waiting for a lock. */
function openOther(file: string): void {
  openSearchDatabase(file, (name) => new Database(name, { timeout: 0 })).close();
}

describe('search index format check under concurrent openers', () => {
  it.each(['application_id', 'user_version'])(
    'another opener right after the first read %s never makes the first refuse the file, nor prepares beside it',
    (trigger) => {
      const file = path.join(dir, 'search.db');
      let other = 'not run';
      const db = openSearchDatabase(file, (name) =>
        runAfterPragma(new Database(name), trigger, () => {
          other = openOutcome(() => openOther(file));
        }),
      );
      db.close();
      // Serialized: the other met the first one's lock (a real process waits for it there).
      expect(other).toBe('SQLITE_BUSY');
      expect(openOutcome(() => openOther(file))).toBe('opened');
      const check = new Database(file, { readonly: true });
      expect(check.pragma('user_version', { simple: true })).toBe(SEARCH_SCHEMA_VERSION);
      expect(check.pragma('journal_mode', { simple: true })).toBe('wal');
      check.close();
    },
  );

  it('a file of another program is refused and left byte for byte as it was', () => {
    const file = path.join(dir, 'other.db');
    const foreign = new Database(file);
    foreign.exec('CREATE TABLE notes (body TEXT)');
    foreign.close();
    const before = readFileSync(file);
    expect(() => openSearchDatabase(file)).toThrow(/is a SQLite database of another program/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});
