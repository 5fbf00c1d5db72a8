import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DataFolderLock } from './data-folder-lock.js';
import { isDataLockError } from './errors.js';
import { holdDataFolder, type DoctorWrite } from './hold-for-command.js';

let dir: string;
let host: DataFolderLock | undefined;
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'strand-hold-'));
  // A running host holds the folder (the kernel lock is per open file, so one process can stage it).
  host = await holdDataFolder(dir, 'serve');
  await host.announceHost({ url: 'http://127.0.0.1:4400', rpcUrl: 'ws://127.0.0.1:4400/rpc' });
});
afterEach(async () => {
  await host?.release();
  host = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function doctorRefusal(writes: readonly DoctorWrite[]): Promise<string> {
  try {
    const lock = await holdDataFolder(dir, 'doctor', writes);
    await lock.release();
  } catch (error) {
    expect(isDataLockError(error, 'CLI_DATA_FOLDER_LOCKED')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected doctor to be refused beside the host');
}

describe('a writing doctor beside a running host says why, for what it was asked to write', () => {
  it('--repair: it would close the turns the host runs', async () => {
    const message = await doctorRefusal(['repair']);
    expect(message).toMatch(
      /; stop that host first: repairing beside it would close the turns it is running \(plain `strand doctor` works beside it\)$/,
    );
  });

  it('--rebuild-index and --rebuild-cache: their own reasons, not the repair text', async () => {
    const index = await doctorRefusal(['rebuild-index']);
    expect(index).toMatch(
      /; stop that host first: rebuilding the search index beside it would race the index it updates on every append \(plain `strand doctor` works beside it\)$/,
    );
    const cache = await doctorRefusal(['rebuild-cache']);
    expect(cache).toMatch(
      /; stop that host first: rebuilding the projection cache beside it would race the cache rows it writes as its sessions settle \(plain/,
    );
    for (const message of [index, cache]) expect(message).not.toMatch(/repair|close the turns/);
  });

  it('several writes: every reason, in the order of the options', async () => {
    const message = await doctorRefusal(['repair', 'rebuild-index', 'rebuild-cache']);
    expect(message).toContain(
      'stop that host first: repairing beside it would close the turns it is running, rebuilding the search index beside it would race the index it updates on every append and rebuilding the projection cache beside it',
    );
  });
});
