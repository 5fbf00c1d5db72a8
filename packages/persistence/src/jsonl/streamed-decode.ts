import type { FileHandle } from 'node:fs/promises';
import type { SessionEvent } from '@strand/session';
import { throwIfAborted } from '../errors.js';
import { checkEnvelope } from './event-lines.js';
import { inflateGroup, inflateGroupElided, type GroupFrame } from './frame-groups.js';
import { decodeZstdHeader, type DecodedLog, type FrameLocation } from './log-decoder.js';
import { FrameKind, META_SIZE, readMeta } from './zstd-frames.js';

/** From this stored size on, a whole read streams the file instead of holding it whole. */
export const STREAMED_DECODE_MIN_BYTES = 256 * 1024;
/** Compressed bytes inflated and parsed together: one `JSON.parse` of ~100 KB of text. */
const GROUP_BYTES = 32 * 1024;
/** File bytes read per I/O. */
const READ_CHUNK = 1024 * 1024;

/** The file ended before its stat'ed size (truncated while being read). */
class ShortRead extends Error {}

/** Forward-only reads of a file through one window. */
class FileWindow {
  #buf = Buffer.alloc(0);
  #start = 0;

  readonly #handle: FileHandle;
  readonly size: number;

  constructor(handle: FileHandle, size: number) {
    this.#handle = handle;
    this.size = size;
  }

  /**
   * Bytes [pos, pos + len) (the caller checked they lie within `size`). Moving the window reads
   * into a fresh buffer and never rewrites an old one, so views handed out earlier stay valid.
   */
  async bytes(pos: number, len: number): Promise<Buffer> {
    const end = this.#start + this.#buf.length;
    if (pos >= this.#start && pos + len <= end)
      return this.#buf.subarray(pos - this.#start, pos - this.#start + len);
    const want = Math.min(Math.max(len, READ_CHUNK), this.size - pos);
    const next = Buffer.allocUnsafe(want);
    // Keep what overlaps (the tail of the previous window), read the rest.
    let filled = pos >= this.#start && pos < end ? this.#buf.copy(next, 0, pos - this.#start) : 0;
    while (filled < want) {
      const { bytesRead } = await this.#handle.read(next, filled, want - filled, pos + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    this.#buf = next.subarray(0, filled);
    this.#start = pos;
    if (filled < len) throw new ShortRead();
    return this.#buf.subarray(0, len);
  }
}

/**
 * The fast path of a whole-log read of a large `.zst` log: the file is read in 1 MiB chunks
 * (never held whole: a 30 MB log no longer costs 30 MB of peak memory), its meta frames walked,
 * and its frames inflated in groups of ~32 KiB, each group parsed with one `JSON.parse`.
 *
 * It takes only the well-formed path: a clean log to its end. On anything else — a torn tail,
 * damage, a short read, a line that does not parse — it returns `undefined` and the caller
 * decodes the log with the one exact decoder (`decodeZstdLog`), which classifies and locates the
 * problem. So the two paths can never disagree about a damaged log.
 *
 * With `dataTypes` (a scan), lines of other types are not parsed: their envelopes come back with
 * `data: null` (see `elided-lines.ts`).
 */
export async function decodeZstdLogStreamed(
  handle: FileHandle,
  size: number,
  sessionId: string,
  signal: AbortSignal | undefined,
  dataTypes?: ReadonlySet<string>,
): Promise<DecodedLog | undefined> {
  throwIfAborted(signal, sessionId);
  const file = new FileWindow(handle, size);
  try {
    if (size < META_SIZE) return undefined;
    const headMeta = readMeta(await file.bytes(0, META_SIZE), 0);
    if (headMeta.status !== 'ok' || headMeta.meta.kind !== FrameKind.Header) return undefined;
    const headLen = META_SIZE + headMeta.meta.zlen;
    if (headLen > size) return undefined;
    const head = decodeZstdHeader(await file.bytes(0, headLen), sessionId);
    if (head === 'short') return undefined;

    const events: SessionEvent[] = [];
    const frames: FrameLocation[] = [];
    let pos = head.end;
    let seq = 0;
    while (pos < size) {
      // Walk metas into one group.
      const group: GroupFrame[] = [];
      const locations: FrameLocation[] = [];
      let groupSeq = seq;
      let bytes = 0;
      while (pos < size && bytes < GROUP_BYTES) {
        if (size - pos < META_SIZE) return undefined;
        const read = readMeta(await file.bytes(pos, META_SIZE), 0);
        if (read.status !== 'ok') return undefined;
        const { meta } = read;
        const end = pos + META_SIZE + meta.zlen;
        if (end > size || meta.kind !== FrameKind.Events || meta.firstSeq !== groupSeq) return undefined;
        group.push({ bytes: await file.bytes(pos + META_SIZE, meta.zlen), count: meta.count });
        locations.push({ firstSeq: groupSeq, count: meta.count, offset: pos });
        bytes += meta.zlen;
        groupSeq += meta.count;
        pos = end;
      }
      if (dataTypes === undefined) {
        const inflated = inflateGroup(group);
        if (inflated.error !== null || inflated.done !== group.length) return undefined;
        if (inflated.text !== null) {
          const parsed: unknown = JSON.parse(inflated.text);
          if (!Array.isArray(parsed) || parsed.length !== groupSeq - seq) return undefined;
          for (const event of parsed as unknown[]) {
            checkEnvelope(event, seq++);
            events.push(event);
          }
        }
      } else {
        const inflated = inflateGroupElided(group, dataTypes, seq);
        if (inflated.error !== null || inflated.done !== group.length) return undefined;
        const parsed: unknown = inflated.text === null ? [] : JSON.parse(inflated.text);
        if (!Array.isArray(parsed) || inflated.slots.length !== groupSeq - seq) return undefined;
        let next = 0;
        for (const slot of inflated.slots) {
          if (slot !== null) {
            seq++;
            events.push(slot);
            continue;
          }
          const event: unknown = parsed[next++];
          checkEnvelope(event, seq++);
          events.push(event);
        }
        if (next !== parsed.length) return undefined;
      }
      for (const location of locations) frames.push(location);
      throwIfAborted(signal, sessionId);
    }
    return { record: head.record, events, frames, validEnd: pos, nextSeq: seq, tornTail: false };
  } catch (error) {
    // Aborts are the caller's to see; every other surprise goes to the exact decoder.
    if (signal?.aborted === true) throw error;
    return undefined;
  }
}
