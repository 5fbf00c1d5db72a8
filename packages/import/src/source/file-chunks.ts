import { closeSync, fstatSync, openSync, read } from 'node:fs';
import { promisify } from 'node:util';

const readAt = promisify(read);

/**
 * A file's bytes as they stood when it was opened, `chunkBytes` at a time (fewer for a smaller
 * file): the one reader of plain source files, for their lines (`SourceLineReader`) and for their
 * digests (`hashFile`). Bytes a harness appends meanwhile are the next read's — the ledger's stamps
 * were taken before, so the next run sees the change; a file cut shorter meanwhile ends where it
 * now ends.
 *
 * Straight reads into one buffer, not a read stream: a peek reads a file or two of its start, and
 * a stream's set-up cost more than the reads (345 aider histories: ~3× the CPU while cold), as did
 * a stream's megabyte buffer for the thousands of small files a hash reads. Opening, sizing and
 * closing are synchronous (microseconds of system call where a promise costs a thread-pool round
 * trip, dear on a virtual machine); only reads, which may wait for the disk, go to the pool — and
 * the read that would only find the end is not made. Each chunk is valid only until the next is
 * asked for (it is the same buffer).
 */
export async function* fileChunks(file: string, chunkBytes: number): AsyncGenerator<Buffer> {
  const fd = openSync(file, 'r');
  try {
    const length = fstatSync(fd).size;
    const buffer = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(length, 1)));
    let position = 0;
    while (position < length) {
      const { bytesRead } = await readAt(fd, buffer, 0, Math.min(buffer.length, length - position), position);
      if (bytesRead === 0) return; // cut shorter since
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    closeSync(fd);
  }
}
