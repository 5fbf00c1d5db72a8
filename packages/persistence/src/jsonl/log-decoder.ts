import { defined } from '@strand/session';
import type { SessionEvent } from '@strand/session';
import { PersistenceError } from '../errors.js';
import { EventLineError, checkEnvelope, parseEventBlock } from './event-lines.js';
import { parseHeaderRecord, type HeaderRecord } from './header-record.js';
import { FrameKind, META_SIZE, decompressFrame, isZeroTail, readMeta } from './zstd-frames.js';

/** Where a durable batch sits in the file: enough to find the frame holding a seq. */
export interface FrameLocation {
  readonly firstSeq: number;
  readonly count: number;
  readonly offset: number;
}

export interface DecodedLog {
  readonly record: HeaderRecord;
  readonly events: SessionEvent[];
  /** Event frames (zstd) or lines (plain) in file order. */
  readonly frames: FrameLocation[];
  /** Byte offset just after the last valid frame/line: where the next append goes. */
  readonly validEnd: number;
  /** Seq after the last valid event. */
  readonly nextSeq: number;
  readonly tornTail: boolean;
}

function corrupt(
  sessionId: string,
  why: string,
  location: { byteOffset: number; frame?: number; line?: number; seq?: number },
  cause?: unknown,
): never {
  throw new PersistenceError(
    'PERSISTENCE_CORRUPT',
    `session ${sessionId} is corrupt at byte ${location.byteOffset}: ${why}`,
    {
      sessionId,
      location,
      ...defined({ cause }),
    },
  );
}

export function decodeZstdHeader(
  buf: Buffer,
  sessionId: string,
): { record: HeaderRecord; end: number } | 'short' {
  const read = readMeta(buf, 0);
  if (read.status === 'short') return 'short';
  if (read.status === 'bad' || read.meta.kind !== FrameKind.Header)
    return corrupt(sessionId, 'no header frame', { byteOffset: 0, frame: 0 });
  const end = META_SIZE + read.meta.zlen;
  if (buf.length < end) return 'short';
  let text: string;
  try {
    text = decompressFrame(buf.subarray(META_SIZE, end)).toString('utf8');
  } catch (error) {
    return corrupt(sessionId, 'header frame does not decompress', { byteOffset: 0, frame: 0 }, error);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return corrupt(sessionId, 'header record is not JSON', { byteOffset: 0, frame: 0 }, error);
  }
  return { record: parseHeaderRecord(raw, sessionId), end };
}

/**
 * Decodes event frames from `start` (a frame boundary whose first seq is `expectSeq`). Damage in
 * the final frame — nothing valid can follow it — is a torn tail and is dropped; damage followed
 * by more bytes is corruption, reported with its location, never skipped.
 * Events with seq < `keepFrom` are decoded for validation but not returned.
 */
export function decodeZstdFrames(
  buf: Buffer,
  sessionId: string,
  start: number,
  expectSeq: number,
  keepFrom = 0,
  firstFrameNumber = 1,
): { events: SessionEvent[]; frames: FrameLocation[]; validEnd: number; nextSeq: number; tornTail: boolean } {
  const events: SessionEvent[] = [];
  const frames: FrameLocation[] = [];
  let pos = start;
  let seq = expectSeq;
  let frameNo = firstFrameNumber;
  while (pos < buf.length) {
    const read = readMeta(buf, pos);
    if (read.status === 'short') return { events, frames, validEnd: pos, nextSeq: seq, tornTail: true };
    if (read.status === 'bad') {
      if (isZeroTail(buf, pos)) return { events, frames, validEnd: pos, nextSeq: seq, tornTail: true };
      return corrupt(sessionId, 'not a frame boundary', { byteOffset: pos, frame: frameNo, seq });
    }
    const { meta } = read;
    const end = pos + META_SIZE + meta.zlen;
    if (end > buf.length) return { events, frames, validEnd: pos, nextSeq: seq, tornTail: true };
    const isLast = end === buf.length;
    try {
      if (meta.kind !== FrameKind.Events) throw new EventLineError('unexpected header frame', seq);
      if (meta.firstSeq !== seq) throw new EventLineError(`expected seq ${seq}, got ${meta.firstSeq}`, seq);
      const block = parseEventBlock(decompressFrame(buf.subarray(pos + META_SIZE, end), 1), seq, meta.count);
      if (seq + meta.count > keepFrom) {
        for (const e of block) if (e.seq >= keepFrom) events.push(e);
      }
    } catch (error) {
      if (isLast) return { events, frames, validEnd: pos, nextSeq: seq, tornTail: true };
      return corrupt(
        sessionId,
        error instanceof Error ? error.message : 'bad frame',
        { byteOffset: pos, frame: frameNo, seq },
        error,
      );
    }
    frames.push({ firstSeq: seq, count: meta.count, offset: pos });
    seq += meta.count;
    pos = end;
    frameNo++;
  }
  return { events, frames, validEnd: pos, nextSeq: seq, tornTail: false };
}

export function decodeZstdLog(buf: Buffer, sessionId: string): DecodedLog {
  const head = decodeZstdHeader(buf, sessionId);
  // A file is only ever published (linked into place) after its header frame is durable.
  if (head === 'short') return corrupt(sessionId, 'truncated header frame', { byteOffset: 0, frame: 0 });
  return { record: head.record, ...decodeZstdFrames(buf, sessionId, head.end, 0) };
}

/** Plain `.jsonl`: line 1 is the header record, every further line one event. */
export function decodePlainLog(buf: Buffer, sessionId: string, keepFrom = 0): DecodedLog {
  const firstNewline = buf.indexOf(10);
  if (firstNewline < 0) return corrupt(sessionId, 'no complete header line', { byteOffset: 0, line: 1 });
  let raw: unknown;
  try {
    raw = JSON.parse(buf.toString('utf8', 0, firstNewline));
  } catch (error) {
    return corrupt(sessionId, 'header line is not JSON', { byteOffset: 0, line: 1 }, error);
  }
  const record = parseHeaderRecord(raw, sessionId);
  const events: SessionEvent[] = [];
  const frames: FrameLocation[] = [];
  let pos = firstNewline + 1;
  let line = 2;
  let seq = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(10, pos);
    // A last line without its newline was never acknowledged: the newline is written with it.
    if (nl < 0) return { record, events, frames, validEnd: pos, nextSeq: seq, tornTail: true };
    const isLast = nl === buf.length - 1;
    try {
      const parsed: unknown = JSON.parse(buf.toString('utf8', pos, nl));
      checkEnvelope(parsed, seq);
      if (seq >= keepFrom) events.push(parsed);
    } catch (error) {
      if (isLast) return { record, events, frames, validEnd: pos, nextSeq: seq, tornTail: true };
      return corrupt(
        sessionId,
        error instanceof Error ? error.message : 'bad line',
        { byteOffset: pos, line, seq },
        error,
      );
    }
    frames.push({ firstSeq: seq, count: 1, offset: pos });
    seq++;
    pos = nl + 1;
    line++;
  }
  return { record, events, frames, validEnd: pos, nextSeq: seq, tornTail: false };
}
