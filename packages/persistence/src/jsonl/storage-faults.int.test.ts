import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionSeq, type SessionEvent, type SessionId } from '@strand/session';
import {
  closedTurn,
  createWritingSession,
  storageFaultContract,
  testHeader,
  writingSession,
} from '@strand/test-support';
import { isPersistenceError, type PersistenceError } from '../errors.js';
import { StorageFaults, faultyStorageFs } from '../testing/storage-faults.js';
import type { StoredLog } from '../types.js';
import { escapeSessionId } from './file-names.js';
import { openJsonlPersistence, type JsonlSessionPersistence } from './jsonl-persistence.js';
import { nodeStorageFs, type StorageFs } from './storage-fs.js';

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<PersistenceError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ name: 'PersistenceError', code });
  if (!isPersistenceError(error)) throw new Error('unreachable');
  return error;
}

for (const compression of ['zstd', 'none'] as const) {
  storageFaultContract(`jsonl (${compression})`, async () => {
    const root = mkdtempSync(path.join(tmpdir(), `strand-jsonl-faults-${compression}-`));
    const faults = new StorageFaults();
    const fs = faultyStorageFs(faults);
    let current = await openJsonlPersistence({ root, compression, fs });
    return {
      persistence: current,
      faults,
      reopen: async () => {
        await current.close();
        current = await openJsonlPersistence({ root, compression, fs });
        return current;
      },
      dispose: async () => {
        await current.close();
        rmSync(root, { recursive: true, force: true });
      },
    };
  });
}

describe('JSONL storage faults, path by path', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });
  function freshRoot(): string {
    const root = mkdtempSync(path.join(tmpdir(), 'strand-jsonl-fault-'));
    roots.push(root);
    return root;
  }
  async function storedSession(
    root: string,
    fs: StorageFs,
  ): Promise<{ p: JsonlSessionPersistence; id: SessionId; before: StoredLog }> {
    const first = await openJsonlPersistence({ root, fs });
    const session = await createWritingSession(first, testHeader('kept'));
    await session.append(closedTurn('durable'));
    await first.close();
    // A fresh instance holds no writer: the next write opens the log.
    const p = await openJsonlPersistence({ root, fs });
    return { p, id: session.id, before: await p.inspect(session.id) };
  }
  function titleOf(before: StoredLog): SessionEvent[] {
    const at = before.events.length;
    return [{ type: 'session/title', seq: SessionSeq(at), time: Date.now(), data: { title: 'renamed' } }];
  }

  it.each(['EPERM', 'EACCES', 'EROFS'])(
    'a title rename whose writer cannot open the log (%s) is PERSISTENCE_IO naming the OS code, the OS error as cause; the log is as before',
    async (code) => {
      const root = freshRoot();
      const faults = new StorageFaults();
      const { p, id, before } = await storedSession(root, faultyStorageFs(faults));
      faults.arm('open', code);
      const failure = await rejectsWith(p.append(id, titleOf(before)), 'PERSISTENCE_IO');
      expect(failure).toMatchObject({ sessionId: id, cause: { code } });
      // The message reaches the wire: it names the OS code, never a path.
      expect(failure.message).toContain(`(${code})`);
      expect(failure.message).not.toContain(root);
      expect(faults.hitsOf('open')).toBe(1);
      faults.heal();
      expect((await p.inspect(id)).events).toEqual(before.events);
      await p.append(id, titleOf(before));
      expect((await p.inspect(id)).events.at(-1)?.data).toEqual({ title: 'renamed' });
      await p.close();
    },
  );

  it('a first write whose folder fsync fails leaves no log behind, so the same session writes once healed', async () => {
    const root = freshRoot();
    const faults = new StorageFaults();
    const p = await openJsonlPersistence({ root, fs: faultyStorageFs(faults) });
    const header = testHeader('first');
    const { incarnation } = await p.create({ header });
    const session = writingSession(p, header, incarnation);
    faults.arm('open', 'EIO'); // the folder is opened to be fsynced after the link
    await expect(session.append(closedTurn('first'))).rejects.toMatchObject({
      code: 'SESSION_WRITE_FAILED',
      cause: { code: 'PERSISTENCE_IO' },
    });
    faults.heal();
    expect(readdirSync(path.join(root, 'sessions'))).toEqual([]);
    await writingSession(p, header, incarnation).append(closedTurn('again'));
    expect((await p.inspect(header.id)).events.map((e) => e.type)).toEqual(
      closedTurn('again').map((e) => e.type),
    );
    await p.close();
  });

  it('a first write into a temp folder that is a file (a real ENOTDIR) is PERSISTENCE_IO; stored logs are untouched', async () => {
    const root = freshRoot();
    const { p, id, before } = await storedSession(root, nodeStorageFs);
    rmSync(path.join(root, 'tmp'), { recursive: true });
    writeFileSync(path.join(root, 'tmp'), 'not a folder');
    const header = testHeader('new');
    const { incarnation } = await p.create({ header });
    const failure: unknown = await writingSession(p, header, incarnation)
      .append(closedTurn('first'))
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ cause: { code: 'PERSISTENCE_IO', cause: { code: 'ENOTDIR' } } });
    await rejectsWith(p.inspect(header.id), 'PERSISTENCE_NOT_FOUND');
    expect((await p.inspect(id)).events).toEqual(before.events);
    await p.close();
  });

  it('an attachment whose folder cannot be created (a real EEXIST/ENOTDIR) is PERSISTENCE_IO', async () => {
    const root = freshRoot();
    const { p, id, before } = await storedSession(root, nodeStorageFs);
    writeFileSync(path.join(root, 'attachments', escapeSessionId(id)), 'not a folder');
    await rejectsWith(
      p.putAttachment(id, { bytes: new Uint8Array([1]), mediaType: 'a/b' }),
      'PERSISTENCE_IO',
    );
    expect((await p.inspect(id)).events).toEqual(before.events);
    await p.close();
  });

  it('opening a store whose root is a file (a real ENOTDIR) is PERSISTENCE_IO naming the code, not the path', async () => {
    const root = path.join(freshRoot(), 'file');
    writeFileSync(root, 'not a folder');
    const failure = await rejectsWith(openJsonlPersistence({ root }), 'PERSISTENCE_IO');
    expect(failure.message).toMatch(/\((ENOTDIR|EEXIST)\)/);
    expect(failure.message).not.toContain(root);
  });
});

describe('JSONL new names made durable on close (`syncNewNamesOnClose`, the import)', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });
  function freshRoot(): string {
    const root = mkdtempSync(path.join(tmpdir(), 'strand-jsonl-names-'));
    roots.push(root);
    return root;
  }
  /** `inner` counting the fsyncs of `sessions/` (each opens the folder for reading first). */
  function countingFolderSyncs(inner: StorageFs): { fs: StorageFs; syncs: () => number } {
    const folders = new Set<number>();
    let syncs = 0;
    const openSync = ((file, flags, mode) => {
      const fd = inner.openSync(file, flags, mode);
      if (typeof file === 'string' && path.basename(file) === 'sessions' && flags === 'r') folders.add(fd);
      return fd;
    }) as StorageFs['openSync'];
    const closeSync = ((fd) => {
      folders.delete(fd);
      inner.closeSync(fd);
    }) as StorageFs['closeSync'];
    const fsync = (fd: number): Promise<void> => {
      if (folders.has(fd)) syncs++;
      return inner.fsync(fd);
    };
    return { fs: { ...inner, openSync, closeSync, fsync }, syncs: () => syncs };
  }
  const headers = ['a', 'b', 'c'].map((name) => testHeader(name));

  it('sessions created whole share one fsync of their folder, taken when the store closes', async () => {
    for (const later of [false, true]) {
      const counting = countingFolderSyncs(nodeStorageFs);
      const p = await openJsonlPersistence({
        root: freshRoot(),
        fs: counting.fs,
        syncNewNamesOnClose: later,
      });
      for (const header of headers) await (await createWritingSession(p, header)).append(closedTurn('x'));
      expect(counting.syncs()).toBe(later ? 0 : headers.length);
      await p.close();
      expect(counting.syncs()).toBe(later ? 1 : headers.length);
    }
  });

  it('a close whose folder fsync fails removes every session it created and is PERSISTENCE_IO; healed, they are created again', async () => {
    const root = freshRoot();
    const faults = new StorageFaults();
    const fs = faultyStorageFs(faults);
    const kept = await openJsonlPersistence({ root, fs });
    const before = await createWritingSession(kept, testHeader('before'));
    await before.append(closedTurn('stored before'));
    await kept.close();
    const p = await openJsonlPersistence({ root, fs, syncNewNamesOnClose: true });
    for (const header of headers) await (await createWritingSession(p, header)).append(closedTurn('x'));
    faults.arm('open', 'EIO'); // the folder is opened to be fsynced when the store closes
    const failure = await rejectsWith(p.close(), 'PERSISTENCE_IO');
    expect(failure.message).toContain('(EIO)');
    expect(faults.hitsOf('open')).toBe(1);
    faults.heal();
    // Only the session stored before: none of the three is known durable, none is left behind.
    expect(readdirSync(path.join(root, 'sessions'))).toEqual([`${escapeSessionId(before.id)}.zst`]);
    const again = await openJsonlPersistence({ root, fs, syncNewNamesOnClose: true });
    for (const header of headers) await (await createWritingSession(again, header)).append(closedTurn('y'));
    await again.close();
    const reader = await openJsonlPersistence({ root });
    expect((await reader.list()).map((s) => s.header.id).sort()).toEqual(
      [before.id, ...headers.map((h) => h.id)].sort(),
    );
    await reader.close();
  });
});
