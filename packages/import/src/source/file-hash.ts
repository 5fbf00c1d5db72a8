import { createHash } from 'node:crypto';
import { fileChunks } from './file-chunks.js';

/** The most read into memory at once while hashing a large file. */
const CHUNK = 1 << 20;

/**
 * SHA-1 of a file's bytes as they stood when it was opened (`fileChunks`). Used only to tell a
 * touched file (new mtime, same bytes) from a changed one, never as a security boundary; SHA-1 is
 * the fastest digest Node ships (~1 GB/s here). Most files hashed are small (a companion of a few
 * hundred bytes, an OpenHands event file), so the reader's buffer is no larger than the file.
 */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha1');
  for await (const chunk of fileChunks(file, CHUNK)) hash.update(chunk);
  return hash.digest('hex');
}

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}
