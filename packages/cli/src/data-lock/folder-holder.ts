import { defined } from '@strand/session';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { LOCK_FILE, readLockRecord, readTokenFile, type LockRecord } from './lock-record.js';
import { tryLockFile, unlockFile } from './os-file-lock.js';

/** Who writes a data folder right now, as a read command needs to know it. */
export type FolderHolder =
  /** Nobody: read the folder directly. */
  | { readonly kind: 'free' }
  /** A running host: read through it (it has the live sessions; the disk lags its turns). */
  | { readonly kind: 'host'; readonly record: LockRecord; readonly rpcUrl: string; readonly token?: string }
  /** A writer that is no host (an import) or has not said where it listens yet: read the disk. */
  | { readonly kind: 'writer'; readonly record?: LockRecord };

/**
 * Asks the kernel whether the folder is held (a shared lock taken and dropped at once), then the
 * record who holds it. Never throws: a folder that cannot be probed reads as free, which is what
 * every read command did before there was a lock.
 */
export async function findDataFolderHolder(dataDir: string): Promise<FolderHolder> {
  const dir = path.resolve(dataDir);
  try {
    const handle = await open(path.join(dir, LOCK_FILE), 'r');
    try {
      if (tryLockFile(handle.fd, 'shared')) {
        unlockFile(handle.fd);
        return { kind: 'free' };
      }
    } finally {
      await handle.close();
    }
  } catch {
    // No lock file (no writer ever ran here) or no way to lock it: nobody we could defer to.
    return { kind: 'free' };
  }
  const read = await readLockRecord(dir);
  if (read.kind !== 'valid') return { kind: 'writer' };
  const { record } = read;
  // The record may still be a dead holder's for the instant before the new holder rewrites it:
  // only a live pid's URL is worth connecting to.
  if (record.host === undefined || !isAlive(record.pid)) return { kind: 'writer', record };
  const token = await readTokenFile(dir, record);
  return { kind: 'host', record, rpcUrl: record.host.rpcUrl, ...defined({ token }) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
