import type { FrameLocation } from './log-decoder.js';

/**
 * A small derived index of a `.zst` log: first seq and byte offset of each event frame, and the
 * file size it covers. It is an accelerator, never an authority: every entry used is verified
 * against the meta frame at its offset, and an index that is missing, does not decode, is from
 * another incarnation or describes a longer file is ignored (and rebuilt by the caller); see
 * `FrameIndexStore` for the one rule on a failed index read.
 *
 * Binary layout (little-endian): 'SIDX' | version u32 | covered size f64 | incarnation length u32
 * | incarnation utf8 | count u32 | count × (firstSeq u32, count u32, offset f64).
 */
export interface FrameIndex {
  readonly incarnation: string;
  readonly coveredSize: number;
  readonly frames: readonly FrameLocation[];
}

const MAGIC = 0x58444953; // 'SIDX'

export function encodeFrameIndex(index: FrameIndex): Buffer {
  const inc = Buffer.from(index.incarnation, 'utf8');
  const buf = Buffer.allocUnsafe(4 + 4 + 8 + 4 + inc.length + 4 + index.frames.length * 16);
  let p = 0;
  p = buf.writeUInt32LE(MAGIC, p);
  p = buf.writeUInt32LE(1, p);
  p = buf.writeDoubleLE(index.coveredSize, p);
  p = buf.writeUInt32LE(inc.length, p);
  p += inc.copy(buf, p);
  p = buf.writeUInt32LE(index.frames.length, p);
  for (const f of index.frames) {
    p = buf.writeUInt32LE(f.firstSeq, p);
    p = buf.writeUInt32LE(f.count, p);
    p = buf.writeDoubleLE(f.offset, p);
  }
  return buf;
}

export function decodeFrameIndex(buf: Buffer): FrameIndex | undefined {
  try {
    let p = 0;
    if (buf.readUInt32LE(p) !== MAGIC || buf.readUInt32LE(p + 4) !== 1) return undefined;
    p += 8;
    const coveredSize = buf.readDoubleLE(p);
    p += 8;
    const incLength = buf.readUInt32LE(p);
    p += 4;
    const incarnation = buf.toString('utf8', p, p + incLength);
    p += incLength;
    const count = buf.readUInt32LE(p);
    p += 4;
    if (buf.length !== p + count * 16) return undefined;
    const frames: FrameLocation[] = new Array<FrameLocation>(count);
    for (let i = 0; i < count; i++, p += 16) {
      frames[i] = {
        firstSeq: buf.readUInt32LE(p),
        count: buf.readUInt32LE(p + 4),
        offset: buf.readDoubleLE(p + 8),
      };
    }
    return { incarnation, coveredSize, frames };
  } catch {
    // A short or garbled index is just absent: it is derived data.
    return undefined;
  }
}

/** Index of the frame containing `seq` (binary search), or -1 if no frame does. */
export function frameContaining(frames: readonly FrameLocation[], seq: number): number {
  let lo = 0;
  let hi = frames.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const f = frames[mid]!;
    if (seq < f.firstSeq) hi = mid - 1;
    else if (seq >= f.firstSeq + f.count) lo = mid + 1;
    else return mid;
  }
  return -1;
}
