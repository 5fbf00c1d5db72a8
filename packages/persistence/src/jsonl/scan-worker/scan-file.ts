import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateGroupClassified, type GroupFrame } from '../frame-groups.js';
import { FrameKind, META_SIZE, readMeta } from '../zstd-frames.js';

/**
 * What the scan worker hands back for one log: the raw header frame, the lines that must be
 * parsed (as one JSON array text, in a transferable buffer), and the elided envelopes in columns.
 * Everything crosses the thread boundary as bytes and numbers; the main thread builds the events.
 */
export interface ScanTransfer {
  /** The header meta + zstd frame, decoded on the main thread by the one header decoder. */
  readonly head: Uint8Array;
  /** `[kept lines joined by ,]` as UTF-8, or null when every line was elided. */
  readonly kept: ArrayBuffer | null;
  /** One per event, in seq order: −1 where the next parsed line goes, else its elided row. */
  readonly slots: Int32Array;
  /** Per elided row: its time, and its type as an index into `typeNames`. */
  readonly elidedTimes: Float64Array;
  readonly elidedTypes: Int32Array;
  readonly typeNames: readonly string[];
  /** Per event frame: firstSeq, count, byte offset (the frame index). */
  readonly frames: Float64Array;
  /** The file's size and mtime as read (decimal strings of bigints): the revision's inputs. */
  readonly size: string;
  readonly mtimeNs: string;
}

/** Compressed bytes inflated and classified together (as the streamed decoder's groups). */
const GROUP_BYTES = 32 * 1024;

function readAll(fd: number, size: number): Buffer | undefined {
  const buf = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const read = readSync(fd, buf, filled, size - filled, filled);
    if (read === 0) return undefined;
    filled += read;
  }
  return buf;
}

/**
 * Reads, decompresses and classifies a whole clean `.zst` log for a scan of `dataTypes`. Takes
 * only the well-formed path, like the streamed decoder: anything unusual (a torn tail, damage, a
 * file that changed size while read) returns undefined, and the caller reads the log itself with
 * the decoders that classify and locate problems.
 */
export function scanFileForTransfer(file: string, dataTypes: ReadonlySet<string>): ScanTransfer | undefined {
  const fd = openSync(file, 'r');
  try {
    const stat = fstatSync(fd, { bigint: true });
    const size = Number(stat.size);
    const buf = readAll(fd, size);
    if (buf === undefined || size < META_SIZE) return undefined;
    const headMeta = readMeta(buf, 0);
    if (headMeta.status !== 'ok' || headMeta.meta.kind !== FrameKind.Header) return undefined;
    const headEnd = META_SIZE + headMeta.meta.zlen;
    if (headEnd > size) return undefined;

    const frames: GroupFrame[] = [];
    const locations: number[] = [];
    let pos = headEnd;
    let seq = 0;
    while (pos < size) {
      if (size - pos < META_SIZE) return undefined;
      const read = readMeta(buf, pos);
      if (read.status !== 'ok') return undefined;
      const { meta } = read;
      const end = pos + META_SIZE + meta.zlen;
      if (end > size || meta.kind !== FrameKind.Events || meta.firstSeq !== seq) return undefined;
      frames.push({ bytes: buf.subarray(pos + META_SIZE, end), count: meta.count });
      locations.push(seq, meta.count, pos);
      seq += meta.count;
      pos = end;
    }

    const slots = new Int32Array(seq).fill(-1);
    const times: number[] = [];
    const types: number[] = [];
    const typeNames: string[] = [];
    const typeIds = new Map<string, number>();
    // Inflated and classified a group at a time, so each pass over the bytes runs while they are
    // still in cache; the kept lines of each group are copied out.
    const keptChunks: Buffer[] = [];
    let keptBytes = 0;
    for (let first = 0; first < frames.length; ) {
      let last = first;
      for (let bytes = 0; last < frames.length && bytes < GROUP_BYTES; last++)
        bytes += frames[last]!.bytes.length;
      const firstSeq = locations[first * 3]!;
      const group = inflateGroupClassified(
        frames.slice(first, last),
        dataTypes,
        firstSeq,
        (index, { type, time }) => {
          let typeId = typeIds.get(type);
          if (typeId === undefined) {
            typeId = typeNames.length;
            typeNames.push(type);
            typeIds.set(type, typeId);
          }
          slots[firstSeq + index] = times.length;
          times.push(time);
          types.push(typeId);
        },
      );
      if (group.error !== null || group.done !== last - first) return undefined;
      if (group.kept > 0) {
        // The lines between the group's `[` and `]`, which join the others with a comma.
        keptChunks.push(Buffer.from(group.out.subarray(1, group.keptEnd - 1)));
        keptBytes += group.keptEnd - 2;
      }
      first = last;
    }
    let kept: ArrayBuffer | null = null;
    if (keptChunks.length > 0) {
      kept = new ArrayBuffer(keptBytes + keptChunks.length + 1);
      const out = new Uint8Array(kept);
      let at = 0;
      for (const chunk of keptChunks) {
        out[at] = at === 0 ? 0x5b : 0x2c; // '[' before the first chunk, ',' between chunks
        out.set(chunk, at + 1);
        at += chunk.length + 1;
      }
      out[at] = 0x5d; // ']'
    }
    return {
      head: Uint8Array.prototype.slice.call(buf, 0, headEnd),
      kept,
      slots,
      elidedTimes: Float64Array.from(times),
      elidedTypes: Int32Array.from(types),
      typeNames,
      frames: Float64Array.from(locations),
      size: stat.size.toString(),
      mtimeNs: stat.mtimeNs.toString(),
    };
  } finally {
    closeSync(fd);
  }
}
