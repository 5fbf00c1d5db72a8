import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { syncFolder } from './folder-syncs.js';
import type { StorageFs } from './storage-fs.js';

/**
 * fsync a directory so a new or removed name in it is durable. Concurrent callers share one
 * fsync (group commit, see `folder-syncs.ts`); each resolves only after one that began after it asked.
 */
export function fsyncDir(fs: StorageFs, dir: string): Promise<void> {
  return syncFolder(fs, dir);
}

/**
 * Writes `data` to a temp file, fsyncs it, and links it to `target` without overwriting
 * (link fails with EEXIST if the name exists), then fsyncs the directory — unless `syncFolder`
 * is false: the caller then makes the new name durable itself (`syncFolder` of its folder, once
 * for many new names), and takes it back if that fails. Returns the file, still
 * open for reading and writing (the handle a writer appends through: no second open), or
 * undefined if `target` already existed. Readers never see a half-written file under `target`; a
 * failure leaves no file under `target` and no handle open.
 */
export async function writeNewFileAtomically(
  fs: StorageFs,
  tmpDir: string,
  target: string,
  data: Buffer,
  syncFolder = true,
): Promise<FileHandle | undefined> {
  const { tmp, handle } = await writeSyncedTemp(fs, tmpDir, target, data, 'wx+');
  try {
    // Link and unlink are name operations of microseconds: made synchronously, they cost no
    // thread-pool round trip each (~20 µs of CPU and two context switches; an import creates
    // thousands of logs).
    try {
      fs.linkSync(tmp, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      await handle.close();
      return undefined;
    } finally {
      try {
        fs.unlinkSync(tmp);
      } catch {
        // The temp name is ours alone; a leftover is swept at the next open.
      }
    }
    if (syncFolder)
      try {
        await fsyncDir(fs, path.dirname(target));
      } catch (error) {
        // The new name may not be durable: take it back, so a failed write leaves no file behind.
        await fs.unlink(target).catch(() => undefined);
        throw error;
      }
  } catch (error) {
    await handle.close().catch(() => undefined); // the first failure is the one to report
    throw error;
  }
  return handle;
}

/** Replaces `target` atomically (temp + fsync + rename + dir fsync): for derived files. */
export async function replaceFileAtomically(
  fs: StorageFs,
  tmpDir: string,
  target: string,
  data: Uint8Array,
): Promise<void> {
  const { tmp, handle } = await writeSyncedTemp(fs, tmpDir, target, data, 'wx');
  await handle.close();
  try {
    await fs.rename(tmp, target);
  } catch (error) {
    await fs.unlink(tmp).catch(() => {
      // Swept at the next open, as for an interrupted write.
    });
    throw error;
  }
  await fsyncDir(fs, path.dirname(target));
}

/**
 * Writes `data` to a fresh temp file in `tmpDir` named after `target`, fsynced; returns its path
 * and its handle, still open (`flags`: `wx`, or `wx+` for a file to be appended to after).
 */
async function writeSyncedTemp(
  fs: StorageFs,
  tmpDir: string,
  target: string,
  data: Uint8Array,
  flags: 'wx' | 'wx+',
): Promise<{ tmp: string; handle: FileHandle }> {
  const tmp = path.join(tmpDir, `${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, flags);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.unlink(tmp).catch(() => {
      // Swept at the next open, as for an interrupted write.
    });
    throw error;
  }
  return { tmp, handle };
}
