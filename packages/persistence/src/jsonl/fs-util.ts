import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { descriptorLogFile, type LogFile } from './log-file.js';
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
 * for many new names), and takes it back if that fails. Returns the file, still open for reading
 * and writing (the descriptor a writer appends through: no second open), or undefined if `target`
 * already existed. Readers never see a half-written file under `target`; a failure leaves no file
 * under `target` and no descriptor open.
 *
 * Everything but the two syncs is a synchronous call: creating a file, writing a few kilobytes to
 * the page cache, linking, unlinking and closing take microseconds of CPU, less than the
 * thread-pool round trip each would cost as a promise — and an import creates thousands of logs.
 */
export async function writeNewFileAtomically(
  fs: StorageFs,
  tmpDir: string,
  target: string,
  data: Buffer,
  syncFolder = true,
): Promise<LogFile | undefined> {
  const tmp = tempName(tmpDir, target);
  const file = descriptorLogFile(fs, fs.openSync(tmp, 'wx+'));
  try {
    try {
      let written = 0;
      while (written < data.length) written += fs.writeSync(file.fd, data, written, data.length - written);
      await fs.fsync(file.fd);
    } catch (error) {
      try {
        fs.unlinkSync(tmp);
      } catch {
        // Swept at the next open, as for an interrupted write.
      }
      throw error;
    }
    try {
      fs.linkSync(tmp, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      await file.close();
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
    await file.close().catch(() => undefined); // the first failure is the one to report
    throw error;
  }
  return file;
}

/** Replaces `target` atomically (temp + fsync + rename + dir fsync): for derived files. */
export async function replaceFileAtomically(
  fs: StorageFs,
  tmpDir: string,
  target: string,
  data: Uint8Array,
): Promise<void> {
  const { tmp, handle } = await writeSyncedTemp(fs, tmpDir, target, data);
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
 * and its handle, still open.
 */
async function writeSyncedTemp(
  fs: StorageFs,
  tmpDir: string,
  target: string,
  data: Uint8Array,
): Promise<{ tmp: string; handle: FileHandle }> {
  const tmp = tempName(tmpDir, target);
  const handle = await fs.open(tmp, 'wx');
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

/**
 * A temp name for `target` no other write uses: a random token drawn once per thread that loads
 * this module (a worker lane has its own), then a count — not fresh random bytes per file, which
 * cost more than the rest of naming a new log. The flags every temp file is created with (`wx`)
 * refuse a name that exists rather than write through another writer's file.
 */
function tempName(tmpDir: string, target: string): string {
  return path.join(tmpDir, `${path.basename(target)}.${TEMP_TOKEN}-${++tempCount}.tmp`);
}
const TEMP_TOKEN = randomBytes(6).toString('hex');
let tempCount = 0;
