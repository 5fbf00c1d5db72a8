import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/**
 * SHA-1 of a file's bytes. Used only to tell a touched file (new mtime, same bytes) from a changed
 * one, never as a security boundary; SHA-1 is the fastest digest Node ships (~1 GB/s here).
 */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha1');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}
