import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataFolderLock, type DataFolderLock } from './data-folder-lock.js';
import { isDataLockError } from './errors.js';
import { findDataFolderHolder } from './folder-holder.js';
import { RECORD_FILE, TOKEN_FILE } from './lock-record.js';

let dir: string;
const held: DataFolderLock[] = [];
const now = () => 1_700_000_000_000;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'strand-lock-'));
});
afterEach(async () => {
  for (const lock of held.splice(0)) await lock.release();
  rmSync(dir, { recursive: true, force: true });
});

async function acquire(command: string, notes: string[] = []): Promise<DataFolderLock> {
  const lock = await acquireDataFolderLock(dir, { command, now, note: (line) => notes.push(line) });
  held.push(lock);
  return lock;
}

async function refusal(command: string): Promise<unknown> {
  try {
    await acquireDataFolderLock(dir, {
      command,
      now,
      advice: (holder) => `; stop ${holder?.command ?? 'it'} first`,
    });
  } catch (error) {
    return error;
  }
  throw new Error('expected the second writer to be refused');
}

describe('the data folder lock', () => {
  it('a second writer is refused naming the holder (command, pid) with the advice, and the record is untouched', async () => {
    const first = await acquire('import');
    const before = readFileSync(path.join(dir, RECORD_FILE), 'utf8');
    const error = await refusal('serve');
    expect(isDataLockError(error, 'CLI_DATA_FOLDER_LOCKED')).toBe(true);
    expect((error as Error).message).toBe(
      `${dir} is in use by \`strand import\` (pid ${process.pid}); stop import first`,
    );
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      code: 'CLI_DATA_FOLDER_LOCKED',
      holder: { command: 'import', pid: process.pid, startedAt: now() },
    });
    expect(readFileSync(path.join(dir, RECORD_FILE), 'utf8')).toBe(before);
    expect(first.record.command).toBe('import');
  });

  it('a released lock is free again, with no takeover note and no record left', async () => {
    const first = await acquire('demo');
    await first.release();
    await first.release();
    expect(existsSync(path.join(dir, RECORD_FILE))).toBe(false);
    const notes: string[] = [];
    await acquire('serve', notes);
    expect(notes).toEqual([]);
  });

  it('the record of a holder that died is taken over with a note naming it', async () => {
    // What a SIGKILLed holder leaves: its record, and no kernel lock (the kernel dropped it).
    writeFileSync(
      path.join(dir, RECORD_FILE),
      JSON.stringify({
        version: 1,
        command: 'serve',
        pid: 999_999,
        startedAt: 1,
        host: { url: 'http://127.0.0.1:1', rpcUrl: 'ws://127.0.0.1:1/rpc', tokenFile: TOKEN_FILE },
      }),
    );
    writeFileSync(path.join(dir, TOKEN_FILE), 'old-secret');
    const notes: string[] = [];
    const lock = await acquire('serve', notes);
    expect(notes).toEqual([
      `strand: took over the lock on ${dir} from \`strand serve\` (pid 999999, http://127.0.0.1:1), which is no longer running`,
    ]);
    expect(existsSync(path.join(dir, TOKEN_FILE))).toBe(false);
    expect(lock.record).toEqual({ version: 1, command: 'serve', pid: process.pid, startedAt: now() });
  });

  it('an unreadable record left behind is taken over too', async () => {
    writeFileSync(path.join(dir, RECORD_FILE), '{"version":');
    const notes: string[] = [];
    await acquire('doctor', notes);
    expect(notes).toEqual([
      `strand: took over the lock on ${dir} from a process (unreadable record), which is no longer running`,
    ]);
  });

  it('read commands find: free, a writer that is no host, then a host with its URL and 0600 token', async () => {
    expect(await findDataFolderHolder(dir)).toEqual({ kind: 'free' });
    const lock = await acquire('serve');
    expect(await findDataFolderHolder(dir)).toMatchObject({ kind: 'writer', record: { command: 'serve' } });
    await lock.announceHost({
      url: 'http://127.0.0.1:4400',
      rpcUrl: 'ws://127.0.0.1:4400/rpc',
      token: 's3cret',
    });
    expect(statSync(path.join(dir, TOKEN_FILE)).mode & 0o777).toBe(0o600);
    expect(await findDataFolderHolder(dir)).toEqual({
      kind: 'host',
      record: lock.record,
      rpcUrl: 'ws://127.0.0.1:4400/rpc',
      token: 's3cret',
    });
    await lock.withdrawHost();
    expect(existsSync(path.join(dir, TOKEN_FILE))).toBe(false);
    expect(await findDataFolderHolder(dir)).toEqual({ kind: 'writer', record: lock.record });
    await lock.announceHost({ url: 'http://127.0.0.1:4400', rpcUrl: 'ws://127.0.0.1:4400/rpc' });
    expect(await findDataFolderHolder(dir)).toEqual({
      kind: 'host',
      record: lock.record,
      rpcUrl: 'ws://127.0.0.1:4400/rpc',
    });
    const error = await refusal('import');
    expect((error as Error).message).toContain('`strand serve` (pid');
    expect((error as Error).message).toContain(', http://127.0.0.1:4400)');
    await lock.release();
    expect(existsSync(path.join(dir, TOKEN_FILE))).toBe(false);
    expect(await findDataFolderHolder(dir)).toEqual({ kind: 'free' });
  });

  it('a held folder whose record escapes the folder (token path) or is malformed reads as a plain writer', async () => {
    await acquire('serve');
    writeFileSync(
      path.join(dir, RECORD_FILE),
      JSON.stringify({
        version: 1,
        command: 'serve',
        pid: process.pid,
        startedAt: 1,
        host: {
          url: 'http://127.0.0.1:1',
          rpcUrl: 'ws://127.0.0.1:1/rpc',
          tokenFile: '../../.ssh/id_ed25519',
        },
      }),
    );
    expect(await findDataFolderHolder(dir)).toEqual({ kind: 'writer' });
    writeFileSync(path.join(dir, RECORD_FILE), 'garbage');
    expect(await findDataFolderHolder(dir)).toEqual({ kind: 'writer' });
    const error = await refusal('serve');
    expect((error as Error).message).toContain('another strand process (still starting');
  });

  it('a folder that cannot hold a lock file fails with CLI_DATA_FOLDER_LOCK_FAILED', async () => {
    const file = path.join(dir, 'not-a-folder');
    writeFileSync(file, '');
    const error = await acquireDataFolderLock(file, { command: 'serve' }).catch((e: unknown) => e);
    expect(isDataLockError(error, 'CLI_DATA_FOLDER_LOCK_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/^cannot lock /);
  });
});
