import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedTurn, createWritingSession, testHeader } from '@strand/test-support';
import { openSqlitePersistence } from './sqlite-persistence.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'strand-sqlite-marker-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What a database written before the change marker holds: the sessions, no marker objects. */
function stripMarker(file: string): void {
  const db = new Database(file);
  db.exec(`DROP TRIGGER sessions_marker_insert; DROP TRIGGER sessions_marker_delete;
    DROP TRIGGER sessions_marker_incarnation; DROP TABLE change_marker;`);
  db.close();
}

describe('the SQLite change marker', () => {
  it('is added to a database from before it at open, and moves with writes of another connection', async () => {
    const file = path.join(dir, 'sessions.db');
    const first = openSqlitePersistence({ path: file });
    await (await createWritingSession(first, testHeader('old'))).append(closedTurn('before the marker'));
    await first.close();
    stripMarker(file);

    const a = openSqlitePersistence({ path: file });
    const b = openSqlitePersistence({ path: file });
    try {
      const before = await a.changeMarker();
      expect(before).toMatch(/^[0-9a-f-]{36}:0$/);
      // Both connections read the one marker row (one database id, however many opened it).
      expect(await b.changeMarker()).toBe(before);
      expect((await a.list()).map((s) => s.header.id)).toEqual(['old']);

      // Another writer of the file (another process, another tool): its create moves a's marker.
      await (await createWritingSession(b, testHeader('by-b'))).append(closedTurn('from b'));
      const afterCreate = await a.changeMarker();
      expect(afterCreate).not.toBe(before);
      await b.delete(testHeader('old').id);
      expect(await a.changeMarker()).not.toBe(afterCreate);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('differs between two databases with the same history (a marker recorded for one never matches the other)', async () => {
    const markers: (string | undefined)[] = [];
    for (const name of ['one.db', 'two.db']) {
      const p = openSqlitePersistence({ path: path.join(dir, name) });
      await (await createWritingSession(p, testHeader('same'))).append(closedTurn('same'));
      markers.push(await p.changeMarker());
      await p.close();
    }
    expect(markers[0]).toMatch(/:1$/);
    expect(markers[1]).toMatch(/:1$/);
    expect(markers[0]).not.toBe(markers[1]);
  });
});
