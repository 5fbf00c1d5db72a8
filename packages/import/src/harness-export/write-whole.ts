import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { HarnessWriteError } from './errors.js';

/**
 * Writes `text` to `file` through a temporary file beside it, synced before the rename: a reader
 * sees the old file or the new one whole, and a failure (full disk, read-only folder) leaves no
 * partial file behind (`HarnessWriteError`, `write-failed`).
 */
export async function writeWhole(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.strand-tmp`);
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw new HarnessWriteError('write-failed', `could not write ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
