import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionSeq, type SessionEvent, type SessionId } from '@strand/session';
import { closedTurn, createWritingSession, storageFaultContract, testHeader } from '@strand/test-support';
import { StorageFaults, faultySqliteConnect } from '../testing/storage-faults.js';
import type { StoredLog } from '../types.js';
import { openSqlitePersistence, type SqliteSessionPersistence } from './sqlite-persistence.js';

storageFaultContract('sqlite', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'strand-sqlite-faults-'));
  const file = path.join(dir, 'strand.db');
  const faults = new StorageFaults();
  const connect = faultySqliteConnect(faults);
  let current = openSqlitePersistence({ path: file, connect });
  return Promise.resolve({
    persistence: current,
    faults,
    reopen: async () => {
      await current.close();
      current = openSqlitePersistence({ path: file, connect });
      return current;
    },
    dispose: async () => {
      await current.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
});

describe('SQLite storage faults, path by path', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  function freshFile(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'strand-sqlite-fault-'));
    dirs.push(dir);
    return path.join(dir, 'strand.db');
  }
  /** A stored session in `file`, and a store over it whose connection the test holds. */
  async function storedSession(
    file: string,
    options: Database.Options = {},
  ): Promise<{ p: SqliteSessionPersistence; db: Database.Database; id: SessionId; before: StoredLog }> {
    const first = openSqlitePersistence({ path: file });
    const session = await createWritingSession(first, testHeader('kept'));
    await session.append(closedTurn('durable'));
    await first.close();
    let db: Database.Database | undefined;
    const p = openSqlitePersistence({
      path: file,
      connect: (at) => (db = new Database(at, options)),
    });
    return { p, db: db!, id: session.id, before: await p.inspect(session.id) };
  }
  function titleOf(before: StoredLog): SessionEvent[] {
    const at = before.events.length;
    return [{ type: 'session/title', seq: SessionSeq(at), time: Date.now(), data: { title: 'renamed' } }];
  }
  function expectIo(error: unknown, code: string): void {
    expect(error).toMatchObject({ name: 'PersistenceError', code: 'PERSISTENCE_IO', cause: { code } });
    expect((error as Error).message).toContain(`(${code})`);
  }

  it('opening a database at a folder (a real SQLITE_CANTOPEN) is PERSISTENCE_IO', () => {
    const folder = path.dirname(freshFile());
    const failure = (() => {
      try {
        openSqlitePersistence({ path: folder });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expectIo(failure, 'SQLITE_CANTOPEN');
  });

  it('an append while another connection holds the write lock (a real SQLITE_BUSY) is PERSISTENCE_IO; the log is as before', async () => {
    const file = freshFile();
    const { p, id, before } = await storedSession(file, { timeout: 0 });
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    expectIo(await p.append(id, titleOf(before)).catch((e: unknown) => e), 'SQLITE_BUSY');
    expectIo(await p.delete(id).catch((e: unknown) => e), 'SQLITE_BUSY');
    other.exec('ROLLBACK');
    other.close();
    expect((await p.inspect(id)).events).toEqual(before.events);
    await p.append(id, titleOf(before));
    await p.close();
  });

  it('an append past the size limit (a real SQLITE_FULL) is PERSISTENCE_IO; the log is as before', async () => {
    const file = freshFile();
    const { p, db, id, before } = await storedSession(file);
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const big: SessionEvent[] = [
      {
        type: 'session/title',
        seq: SessionSeq(before.events.length),
        time: 1,
        data: { title: 'x'.repeat(200_000) },
      },
    ];
    expectIo(await p.append(id, big).catch((e: unknown) => e), 'SQLITE_FULL');
    expectIo(
      await p
        .putAttachment(id, { bytes: new Uint8Array(200_000), mediaType: 'a/b' })
        .catch((e: unknown) => e),
      'SQLITE_FULL',
    );
    expect((await p.inspect(id)).events).toEqual(before.events);
    await p.close();
  });

  it('a write to a read-only connection (a real SQLITE_READONLY) is PERSISTENCE_IO on append, create and delete', async () => {
    const file = freshFile();
    const { p, db, id, before } = await storedSession(file);
    db.pragma('query_only = 1');
    expectIo(await p.append(id, titleOf(before)).catch((e: unknown) => e), 'SQLITE_READONLY');
    expectIo(
      await p.create({ header: testHeader('new'), materialize: true }).catch((e: unknown) => e),
      'SQLITE_READONLY',
    );
    expectIo(await p.delete(id).catch((e: unknown) => e), 'SQLITE_READONLY');
    db.pragma('query_only = 0');
    expect((await p.inspect(id)).events).toEqual(before.events);
    await p.close();
  });

  it.each([
    'SQLITE_IOERR',
    'SQLITE_IOERR_WRITE',
    'SQLITE_IOERR_FSYNC',
    'SQLITE_FULL',
    'SQLITE_READONLY',
    'SQLITE_BUSY',
  ])('an append whose commit fails with %s is PERSISTENCE_IO and rolled back', async (code) => {
    const file = freshFile();
    const { p: plain, id, before } = await storedSession(file);
    await plain.close();
    const faults = new StorageFaults();
    const p = openSqlitePersistence({ path: file, connect: faultySqliteConnect(faults) });
    faults.arm('sync', code);
    expectIo(await p.append(id, titleOf(before)).catch((e: unknown) => e), code);
    faults.heal();
    expect((await p.inspect(id)).events).toEqual(before.events);
    await p.close();
  });
});
