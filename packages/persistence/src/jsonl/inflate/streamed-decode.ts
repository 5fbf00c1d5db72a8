import type { FileHandle } from 'node:fs/promises';
import type { SessionEvent } from '@strand/session';
import { throwIfAborted } from '../../errors.js';
import { checkEnvelope } from '../event-lines.js';
import { decodeZstdHeader, type DecodedLog, type FrameLocation } from '../log-decoder.js';
import { FrameKind, META_SIZE, readMeta } from '../zstd-frames.js';
import { inflateGroup } from './inflate-worker.mjs';
import { FrameInflater, type InflateFrame, type InflatedGroup } from './frame-inflater.js';

/** Below this stored size a log is decoded on the main thread: a worker round trip would cost more. */
export const STREAMED_DECODE_MIN_BYTES = 256 * 1024;
/** Compressed bytes per worker request: small enough to overlap well, large enough to amortize a message. */
const GROUP_BYTES = 12 * 1024;
/** Groups in flight: keeps the worker busy while bounding inflated text waiting for the parser. */
const MAX_IN_FLIGHT = 4;
/** File bytes read per I/O: the file is never held whole in memory. */
const READ_CHUNK = 1024 * 1024;

/** Forward-only reads of a file through one reusable window. */
class FileWindow {
  #buf = Buffer.alloc(0);
  #start = 0;

  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

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
    let filled = 0;
    if (pos >= this.#start && pos < end) {
      filled = this.#buf.copy(next, 0, pos - this.#start);
    }
    while (filled < want) {
      const { bytesRead } = await this.handle.read(next, filled, want - filled, pos + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    this.#buf = next.subarray(0, filled);
    this.#start = pos;
    if (filled < len) throw new ShortRead();
    return this.#buf.subarray(0, len);
  }
}

/** The file ended before its stat'ed size (truncated while being read): decode it the plain way. */
class ShortRead extends Error {}

interface Group {
  readonly frames: readonly FrameLocation[];
  readonly inflated: Promise<InflatedGroup>;
}

/**
 * The fast path of a whole-log read of a large `.zst` log: the file is read in chunks, its meta
 * frames walked here, and the zstd frames inflated by the worker while this thread parses the
 * groups already inflated — decompression moves to the second core, and the file is never held
 * whole.
 *
 * It takes only the well-formed path: a clean log to its end. On anything else — a torn tail,
 * damage, a short read, a worker failure, a line that does not parse — it returns `undefined`
 * and the caller decodes the log with the one exact decoder (`decodeZstdLog`), which classifies
 * and locates the problem. So the two paths can never disagree about a damaged log.
 */
export async function decodeZstdLogStreamed(
  handle: FileHandle,
  size: number,
  sessionId: string,
  signal: AbortSignal | undefined,
  offThread = true,
): Promise<DecodedLog | undefined> {
  const inflater = offThread ? FrameInflater.shared() : undefined;
  // Without a worker the same group code runs here: the file is still never held whole.
  const inflate = (data: Uint8Array, frames: InflateFrame[]): Promise<InflatedGroup> =>
    inflater === undefined
      ? Promise.resolve(inflateGroup({ id: 0, data, frames }))
      : inflater.inflate(data, frames);
  throwIfAborted(signal, sessionId);
  const file = new FileWindow(handle, size);
  const inFlight: Group[] = [];
  try {
    if (size < META_SIZE) return undefined;
    const headMeta = readMeta(await file.bytes(0, META_SIZE), 0);
    if (headMeta.status !== 'ok' || headMeta.meta.kind !== FrameKind.Header) return undefined;
    const headLen = META_SIZE + headMeta.meta.zlen;
    if (headLen > size) return undefined;
    const head = decodeZstdHeader(Buffer.from(await file.bytes(0, headLen)), sessionId);
    if (head === 'short') return undefined;

    const events: SessionEvent[] = [];
    const frames: FrameLocation[] = [];
    let walkPos = head.end;
    let walkSeq = 0;
    let walkDone = false;
    let seq = 0;

    /** Walks metas from `walkPos` into one group; false if the log is not clean from here. */
    const dispatch = async (): Promise<boolean> => {
      const group: FrameLocation[] = [];
      const lens: InflateFrame[] = [];
      const parts: Buffer[] = [];
      let bytes = 0;
      while (walkPos < size && bytes < GROUP_BYTES) {
        if (size - walkPos < META_SIZE) return false;
        const read = readMeta(await file.bytes(walkPos, META_SIZE), 0);
        if (read.status !== 'ok') return false;
        const { meta } = read;
        const end = walkPos + META_SIZE + meta.zlen;
        if (end > size || meta.kind !== FrameKind.Events || meta.firstSeq !== walkSeq) return false;
        // A view: the window never rewrites a buffer it has handed out, it reads into a new one.
        parts.push(await file.bytes(walkPos + META_SIZE, meta.zlen));
        group.push({ firstSeq: walkSeq, count: meta.count, offset: walkPos });
        lens.push({ len: meta.zlen, count: meta.count });
        bytes += meta.zlen;
        walkSeq += meta.count;
        walkPos = end;
      }
      if (walkPos >= size) walkDone = true;
      if (group.length === 0) return true;
      // A dedicated ArrayBuffer (never Node's shared Buffer pool): it is transferred to the worker.
      const data = new Uint8Array(bytes);
      let at = 0;
      for (const part of parts) {
        data.set(part, at);
        at += part.length;
      }
      const inflated = inflate(data, lens);
      // Handled when consumed; until then a rejection must not count as unhandled.
      inflated.catch(() => undefined);
      inFlight.push({ frames: group, inflated });
      return true;
    };

    for (;;) {
      while (!walkDone && inFlight.length < MAX_IN_FLIGHT) if (!(await dispatch())) return undefined;
      const group = inFlight.shift();
      if (group === undefined) break;
      const inflated = await group.inflated;
      throwIfAborted(signal, sessionId);
      if (inflated.error !== null || inflated.done !== group.frames.length) return undefined;
      if (inflated.text !== null) {
        const parsed: unknown = JSON.parse(inflated.text);
        const expected = group.frames.reduce((n, f) => n + f.count, 0);
        if (!Array.isArray(parsed) || parsed.length !== expected) return undefined;
        for (const event of parsed as unknown[]) {
          checkEnvelope(event, seq++);
          events.push(event);
        }
      }
      for (const f of group.frames) frames.push(f);
    }
    return { record: head.record, events, frames, validEnd: walkPos, nextSeq: seq, tornTail: false };
  } catch (error) {
    // Aborts are the caller's to see; every other surprise goes to the exact decoder.
    if (signal?.aborted === true) throw error;
    return undefined;
  } finally {
    for (const group of inFlight) group.inflated.catch(() => undefined);
  }
}
