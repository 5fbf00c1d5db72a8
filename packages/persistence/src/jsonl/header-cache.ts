import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { PersistenceError } from '../errors.js';
import type { HeaderRecord } from './header-record.js';
import { decodePlainLog, decodeZstdHeader } from './log-decoder.js';
import type { Located } from './session-files.js';

/** Bytes read first for a header; a larger header is re-read with a probe 8× as large. */
export const HEADER_PROBE = 2 * 1024;

export interface HeaderRead {
  readonly record: HeaderRecord;
  readonly size: bigint;
  readonly mtimeNs: bigint;
}

/**
 * Header records by file. A file's header record never changes while the file exists, so a
 * listing re-reads only files it has not seen: one `stat` per file, keyed by inode and birth time
 * (a deleted and recreated session is a new file even if the inode number is reused).
 *
 * Reads are synchronous on purpose: each is a few µs against the page cache, far cheaper than a
 * thread-pool round trip per file in a listing of thousands. Errors are the caller's: an `ENOENT`
 * means the file went away, a `PersistenceError` that its header is damaged or too new.
 */
export class HeaderCache {
  readonly #headers = new Map<string, { readonly identity: string; readonly record: HeaderRecord }>();

  headerOf(id: string, located: Located): HeaderRead {
    const stat = statSync(located.file, { bigint: true });
    const identity = `${stat.ino}:${stat.birthtimeNs}`;
    const cached = this.#headers.get(located.file);
    if (cached !== undefined && cached.identity === identity)
      return { record: cached.record, size: stat.size, mtimeNs: stat.mtimeNs };
    const read = readHeaderSync(id, located);
    this.#headers.set(located.file, { identity, record: read.record });
    return read;
  }

  forget(file: string): void {
    this.#headers.delete(file);
  }
}

/** Reads and validates a session file's header record with a few small sync reads. */
function readHeaderSync(id: string, located: Located): HeaderRead {
  const fd = openSync(located.file, 'r');
  try {
    const stat = fstatSync(fd, { bigint: true });
    const total = Number(stat.size);
    let probe = Math.min(HEADER_PROBE, total);
    for (;;) {
      const buf = Buffer.allocUnsafe(probe);
      const slice = buf.subarray(0, readSync(fd, buf, 0, probe, 0));
      if (located.compressed) {
        const head = decodeZstdHeader(slice, id);
        if (head !== 'short') return { record: head.record, size: stat.size, mtimeNs: stat.mtimeNs };
      } else if (slice.includes(10)) {
        return {
          record: decodePlainLog(slice.subarray(0, slice.indexOf(10) + 1), id).record,
          size: stat.size,
          mtimeNs: stat.mtimeNs,
        };
      }
      if (probe >= total) {
        throw new PersistenceError('PERSISTENCE_CORRUPT', `session ${id}: truncated header`, {
          sessionId: id,
          location: { byteOffset: 0 },
        });
      }
      probe = Math.min(probe * 8, total);
    }
  } finally {
    closeSync(fd);
  }
}
