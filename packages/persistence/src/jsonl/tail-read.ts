import { promises as fsp } from 'node:fs';
import type { SessionEvent } from '@strand/session';
import { isPersistenceError, throwIfAborted } from '../errors.js';
import type { FrameIndex } from './frame-index.js';
import { frameContaining } from './frame-index.js';
import { HEADER_PROBE } from './header-cache.js';
import type { HeaderRecord } from './header-record.js';
import { decodeZstdFrames, decodeZstdHeader } from './log-decoder.js';
import { storageError } from './storage-error.js';
import { FrameKind, readMeta } from './zstd-frames.js';

export interface Tail {
  readonly record: HeaderRecord;
  /** The events with seq >= `from`. */
  readonly events: SessionEvent[];
  readonly nextSeq: number;
}

/**
 * Reads only the frames of a `.zst` log holding seqs >= `from`, located through `index` and
 * verified against the header (same incarnation) and the meta frame at the offset used.
 *
 * Undefined means "declined: read the whole log", for an index that does not fit this file and
 * for damage in the frames read: the tail sees only part of the file, so the exact decoder of
 * the whole log judges any damage (and gives its location in the file). Storage failures are not
 * declined: they are `PERSISTENCE_IO` (or not-found when the log went away), as on any read; an
 * unsupported header version is the same error the whole read would give.
 */
export async function readTail(
  id: string,
  file: string,
  index: FrameIndex,
  from: number,
  signal: AbortSignal | undefined,
): Promise<Tail | undefined> {
  try {
    return await readTailUnchecked(id, file, index, from, signal);
  } catch (error) {
    if (isPersistenceError(error, 'PERSISTENCE_CORRUPT')) return undefined;
    throw storageError(error, id);
  }
}

async function readTailUnchecked(
  id: string,
  file: string,
  index: FrameIndex,
  from: number,
  signal: AbortSignal | undefined,
): Promise<Tail | undefined> {
  const handle = await fsp.open(file, 'r');
  try {
    const stat = await handle.stat();
    if (stat.size < index.coveredSize) return undefined;
    const headBuf = Buffer.allocUnsafe(Math.min(HEADER_PROBE, stat.size));
    const headRead = await handle.read(headBuf, 0, headBuf.length, 0);
    const head = decodeZstdHeader(headBuf.subarray(0, headRead.bytesRead), id);
    if (head === 'short' || head.record.incarnation !== index.incarnation) return undefined;
    const last = index.frames.at(-1);
    const coveredNext = last === undefined ? 0 : last.firstSeq + last.count;
    const start =
      from >= coveredNext
        ? { firstSeq: coveredNext, offset: index.coveredSize === 0 ? head.end : index.coveredSize }
        : index.frames[Math.max(0, frameContaining(index.frames, from))]!;
    if (start.offset < head.end) return undefined;
    const length = stat.size - start.offset;
    const buf = Buffer.allocUnsafe(length);
    // A short read means the file shrank since the stat: decline rather than decode stale bytes.
    if (length > 0 && (await handle.read(buf, 0, length, start.offset)).bytesRead !== length)
      return undefined;
    throwIfAborted(signal, id);
    if (length > 0) {
      const meta = readMeta(buf, 0);
      if (
        meta.status !== 'ok' ||
        meta.meta.kind !== FrameKind.Events ||
        meta.meta.firstSeq !== start.firstSeq
      )
        return undefined;
    }
    const decoded = decodeZstdFrames(buf, id, 0, start.firstSeq, from);
    return { record: head.record, events: decoded.events, nextSeq: decoded.nextSeq };
  } finally {
    await handle.close();
  }
}
