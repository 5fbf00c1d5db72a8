import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionSeq, type SessionId } from '@strand/session';
import {
  closedTurn,
  crashedTurn,
  createWritingSession,
  persistenceContract,
  testHeader,
} from '@strand/test-support';
import { openSqlitePersistence, type SqliteSessionPersistence } from './sqlite-persistence.js';
import { SQLITE_APPLICATION_ID, SQLITE_SCHEMA_VERSION } from './schema.js';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'strand-sqlite-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

persistenceContract('sqlite', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'strand-sqlite-contract-'));
  const file = path.join(dir, 'strand.db');
  let current = openSqlitePersistence({ path: file });
  return Promise.resolve({
    persistence: current,
    reopen: async () => {
      await current.close();
      current = openSqlitePersistence({ path: file });
      return current;
    },
    dispose: async () => {
      await current.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
});

function rawDb(file: string, sql: string): void {
  const db = new Database(file);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

async function storedSession(file: string): Promise<{ p: SqliteSessionPersistence; id: SessionId }> {
  const p = openSqlitePersistence({ path: file });
  const session = await createWritingSession(p, testHeader('s'));
  await session.append(closedTurn('hello'));
  return { p, id: session.id };
}

describe('SQLite session store', () => {
  it('initializes a new file with the Strand application id, schema version and WAL', async () => {
    const file = path.join(freshDir(), 'new.db');
    await openSqlitePersistence({ path: file }).close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('application_id', { simple: true })).toBe(SQLITE_APPLICATION_ID);
    expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('refuses a database with another application id, leaving it untouched', () => {
    const file = path.join(freshDir(), 'foreign.db');
    rawDb(file, 'PRAGMA application_id = 1234; CREATE TABLE t (x);');
    expect(() => openSqlitePersistence({ path: file })).toThrow(
      expect.objectContaining({
        code: 'PERSISTENCE_FORMAT_UNSUPPORTED',
        message: expect.stringMatching(/not a Strand session database/),
      }),
    );
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    db.close();
  });

  it('refuses a SQLite database of another program that has no application id', () => {
    const file = path.join(freshDir(), 'other.db');
    rawDb(file, 'CREATE TABLE t (x);');
    expect(() => openSqlitePersistence({ path: file })).toThrow(
      expect.objectContaining({ code: 'PERSISTENCE_FORMAT_UNSUPPORTED' }),
    );
  });

  it('refuses a file that is not a SQLite database', () => {
    const file = path.join(freshDir(), 'text.db');
    writeFileSync(
      file,
      'this is not a database, just some text that is long enough to have a header'.repeat(10),
    );
    expect(() => openSqlitePersistence({ path: file })).toThrow(
      expect.objectContaining({ code: 'PERSISTENCE_FORMAT_UNSUPPORTED' }),
    );
  });

  it('refuses a database with a newer schema version', async () => {
    const file = path.join(freshDir(), 'newer.db');
    await openSqlitePersistence({ path: file }).close();
    rawDb(file, `PRAGMA user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
    expect(() => openSqlitePersistence({ path: file })).toThrow(
      expect.objectContaining({
        code: 'PERSISTENCE_FORMAT_UNSUPPORTED',
        message: expect.stringMatching(/schema version 2, newer/),
      }),
    );
  });

  it('keeps every acknowledged append across close and reopen', async () => {
    const file = path.join(freshDir(), 'reopen.db');
    const first = openSqlitePersistence({ path: file });
    const session = await createWritingSession(first, testHeader('kept'));
    for (const prompt of ['a', 'b', 'c']) await session.append(closedTurn(prompt));
    const revision = await first.revisionOf(session.id);
    await first.close();
    const second = openSqlitePersistence({ path: file });
    const log = await second.inspect(session.id);
    expect(log.events).toEqual(session.events);
    expect(log.revision).toBe(revision);
    expect(log.incarnation).toBe(session.incarnation);
    await second.close();
  });

  it('grows storedBytes by the payload of each append, and not for attachments', async () => {
    const file = path.join(freshDir(), 'bytes.db');
    const { p, id } = await storedSession(file);
    const before = (await p.inspect(id)).storedBytes;
    const title = {
      type: 'session/title',
      seq: SessionSeq((await p.inspect(id)).events.length),
      time: 1,
      data: { title: 'é' },
    };
    await p.append(id, [title]);
    const after = await p.inspect(id);
    // type (13) + data {"title":"é"} (14 bytes: é is two) + 16 bytes of row overhead
    expect(after.storedBytes - before).toBe(13 + 14 + 16);
    await p.putAttachment(id, { bytes: new Uint8Array(1000), mediaType: 'application/octet-stream' });
    expect((await p.list())[0]?.storedBytes).toBe(after.storedBytes);
    await p.close();
  });

  it('reports event data that is not JSON as PERSISTENCE_CORRUPT naming the session and seq', async () => {
    const file = path.join(freshDir(), 'corrupt.db');
    const { p, id } = await storedSession(file);
    rawDb(file, `UPDATE events SET data = '{"broken' WHERE seq = 3`);
    const error: unknown = await p.inspect(id).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PERSISTENCE_CORRUPT', sessionId: id, location: { seq: 3 } });
    expect(String((error as Error).message)).toMatch(/session s, seq 3/);
    await p.close();
  });

  it('reports a seq gap as PERSISTENCE_CORRUPT "expected N, got M"', async () => {
    const file = path.join(freshDir(), 'gap.db');
    const { p, id } = await storedSession(file);
    rawDb(file, 'DELETE FROM events WHERE seq = 4');
    await expect(p.inspect(id)).rejects.toMatchObject({ code: 'PERSISTENCE_CORRUPT', location: { seq: 4 } });
    await expect(p.inspect(id)).rejects.toThrow(/expected 4, got 5/);
    await expect(p.readFrom(id, SessionSeq(2))).rejects.toMatchObject({ code: 'PERSISTENCE_CORRUPT' });
    await p.close();
  });

  it('reports missing tail rows as PERSISTENCE_CORRUPT', async () => {
    const file = path.join(freshDir(), 'tail.db');
    const { p, id } = await storedSession(file);
    rawDb(file, 'DELETE FROM events WHERE seq = 10');
    await expect(p.inspect(id)).rejects.toMatchObject({ code: 'PERSISTENCE_CORRUPT', location: { seq: 10 } });
    await expect(p.readFrom(id, SessionSeq(8))).rejects.toMatchObject({ code: 'PERSISTENCE_CORRUPT' });
    await p.close();
  });

  it('reads only the requested suffix rows for readFrom', async () => {
    const file = path.join(freshDir(), 'suffix.db');
    const { p, id } = await storedSession(file);
    // Damage before `from` must not be read (and so not reported) by a suffix read.
    rawDb(file, `UPDATE events SET data = 'not json' WHERE seq = 1`);
    const suffix = await p.readFrom(id, SessionSeq(5));
    expect(suffix.events.map((e) => e.seq)).toEqual([5, 6, 7, 8, 9, 10]);
    await p.close();
  });

  it('writes the repair closers of a crashed turn in one append that a second store sees', async () => {
    const file = path.join(freshDir(), 'repair.db');
    const writer = openSqlitePersistence({ path: file });
    const session = await createWritingSession(writer, testHeader('crash'));
    await session.append(crashedTurn('boom', ['c1']));
    const reader = openSqlitePersistence({ path: file });
    const loaded = await reader.load(session.id);
    expect(loaded.events.slice(-3).map((e) => e.type)).toEqual(['tool/result', 'step/end', 'turn/end']);
    expect((await writer.inspect(session.id)).events).toEqual(loaded.events);
    await writer.close();
    await reader.close();
  });

  it('maps a failing SQLite write to PERSISTENCE_IO and leaves the log as before the batch', async () => {
    const file = path.join(freshDir(), 'io.db');
    const { p, id } = await storedSession(file);
    const before = await p.inspect(id);
    rawDb(
      file,
      "CREATE TRIGGER refuse BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk says no'); END;",
    );
    const next = {
      type: 'session/title',
      seq: SessionSeq(before.events.length),
      time: 1,
      data: { title: 't' },
    };
    await expect(p.append(id, [next])).rejects.toMatchObject({
      code: 'PERSISTENCE_IO',
      cause: expect.anything(),
    });
    const after = await p.inspect(id);
    expect(after.events).toEqual(before.events);
    expect(after.revision).toBe(before.revision);
    await p.close();
  });
});
