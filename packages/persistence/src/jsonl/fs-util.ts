import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

/** fsync a directory so a new or removed name in it is durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes `data` to a temp file, fsyncs it, and links it to `target` without overwriting
 * (link fails with EEXIST if the name exists), then fsyncs the directory. Returns false if
 * `target` already existed. Readers never see a half-written file under `target`.
 */
export async function writeNewFileAtomically(tmpDir: string, target: string, data: Buffer): Promise<boolean> {
  const tmp = await writeSyncedTemp(tmpDir, target, data);
  try {
    await fsp.link(tmp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await fsp.unlink(tmp).catch(() => {
      // The temp name is ours alone; a leftover is swept at the next open.
    });
  }
  await fsyncDir(path.dirname(target));
  return true;
}

/** Replaces `target` atomically (temp + fsync + rename + dir fsync): for derived files. */
export async function replaceFileAtomically(tmpDir: string, target: string, data: Uint8Array): Promise<void> {
  const tmp = await writeSyncedTemp(tmpDir, target, data);
  await fsp.rename(tmp, target);
  await fsyncDir(path.dirname(target));
}

/** Writes `data` to a fresh temp file in `tmpDir` named after `target`, fsynced; returns its path. */
async function writeSyncedTemp(tmpDir: string, target: string, data: Uint8Array): Promise<string> {
  const tmp = path.join(tmpDir, `${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fsp.open(tmp, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return tmp;
}
