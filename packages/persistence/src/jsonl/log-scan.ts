import { PersistenceError } from '../errors.js';
import { parseEventBlock } from './event-lines.js';
import type { HeaderRecord } from './header-record.js';
import { decodeZstdHeader, type FrameLocation } from './log-decoder.js';
import { FrameKind, META_SIZE, decompressFrame, isZeroTail, readMeta } from './zstd-frames.js';

/**
 * Walks a `.zst` log's meta frames without decompressing the batches, to learn where the next
 * append goes. Only the final frame is decoded (and checksum-verified), because that is the one a
 * crash can tear; a torn final frame ends the valid prefix. Used when opening a writer.
 */
export function scanZstdFrames(
  buf: Buffer,
  sessionId: string,
): { record: HeaderRecord; frames: FrameLocation[]; validEnd: number; nextSeq: number } {
  const head = decodeZstdHeader(buf, sessionId);
  if (head === 'short') {
    throw new PersistenceError('PERSISTENCE_CORRUPT', `session ${sessionId}: truncated header frame`, {
      sessionId,
      location: { byteOffset: 0 },
    });
  }
  const frames: FrameLocation[] = [];
  let pos = head.end;
  let seq = 0;
  while (pos < buf.length) {
    const read = readMeta(buf, pos);
    if (read.status === 'short') break;
    if (read.status === 'bad') {
      if (isZeroTail(buf, pos)) break;
      throw new PersistenceError(
        'PERSISTENCE_CORRUPT',
        `session ${sessionId} is corrupt at byte ${pos}: not a frame boundary`,
        {
          sessionId,
          location: { byteOffset: pos, frame: frames.length + 1, seq },
        },
      );
    }
    const end = pos + META_SIZE + read.meta.zlen;
    if (end > buf.length) break;
    if (read.meta.kind !== FrameKind.Events || read.meta.firstSeq !== seq) {
      if (end === buf.length) break;
      // Never truncate past damage that valid data follows: that would destroy acknowledged events.
      throw new PersistenceError(
        'PERSISTENCE_CORRUPT',
        `session ${sessionId} is corrupt at byte ${pos}: expected seq ${seq}, got ${read.meta.firstSeq}`,
        {
          sessionId,
          location: { byteOffset: pos, frame: frames.length + 1, seq },
        },
      );
    }
    if (end === buf.length) {
      try {
        parseEventBlock(decompressFrame(buf.subarray(pos + META_SIZE, end), 1), seq, read.meta.count);
      } catch {
        // The final frame is torn: it was never acknowledged, so the valid prefix ends before it.
        break;
      }
    }
    frames.push({ firstSeq: seq, count: read.meta.count, offset: pos });
    seq += read.meta.count;
    pos = end;
  }
  return { record: head.record, frames, validEnd: pos, nextSeq: seq };
}
