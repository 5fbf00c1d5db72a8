import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';

/** The most read into memory at once while hashing a large file. */
const CHUNK = 1 << 20;

/**
 * SHA-1 of a file's bytes. Used only to tell a touched file (new mtime, same bytes) from a changed
 * one, never as a security boundary; SHA-1 is the fastest digest Node ships (~1 GB/s here).
 *
 * Read through one file handle into a buffer no larger than the file: most files hashed are small
 * (a companion of a few hundred bytes, an OpenHands event file), and a read stream per file —
 * with its own megabyte buffer — cost more than the hashing (allocation, garbage collection, the
 * stream's machinery) when a conversation is thousands of them.
 */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha1');
  const handle = await fsp.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(size, CHUNK)));
    // Read to the end, not to `size`: a file still being appended to is hashed as far as it goes.
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}
