import type { SessionEvent } from '@strand/session';
import { elidedEvent } from '../scanned-log.js';
import { plainEnvelope, type PlainEnvelope } from './elided-lines.js';
import { decompressFrameInto, frameContentSize } from './zstd-frames.js';

/** One zstd frame of a group: its compressed bytes and the events it must hold. */
export interface GroupFrame {
  readonly bytes: Uint8Array;
  readonly count: number;
}

/** A group of frames inflated into one JSON array text. */
export interface InflatedGroup {
  /** `[e0,e1,…]` over the events of the first `done` frames, or null when they hold none. */
  readonly text: string | null;
  readonly done: number;
  /** The first frame that failed (bad zstd, checksum, line count), if any. */
  readonly error: string | null;
}

/**
 * A group inflated for a scan: `text` holds only the lines that must be parsed; `slots` has one
 * entry per event of the first `done` frames, in seq order — the elided envelope, or `null` where
 * the next element of the parsed `text` goes.
 */
export interface ElidedGroup extends InflatedGroup {
  readonly slots: readonly (SessionEvent | null)[];
}

const NEWLINE = 0x0a;
const COMMA = 0x2c;
/** The scratch buffer never stays larger than this; an outsized group gets a buffer of its own. */
const SCRATCH_MAX = 4 * 1024 * 1024;
let scratch = Buffer.allocUnsafe(256 * 1024);

interface InflatedBytes {
  readonly out: Buffer;
  /** End of the inflated lines in `out` (they start at 1). */
  readonly end: number;
  readonly events: number;
  readonly done: number;
  readonly error: string | null;
}

/**
 * Decompresses each frame's lines side by side into one buffer with a spare byte in front, and
 * turns every line's newline into `,`. `lineEnds`, when given, receives the position of each of
 * those commas (a line's end), since commas inside lines make them unrecoverable afterwards.
 */
function inflateGroupBytes(frames: readonly GroupFrame[], lineEnds: number[] | undefined): InflatedBytes {
  const sizes: number[] = [];
  let total = 0;
  for (const frame of frames) {
    const size = frameContentSize(frame.bytes);
    if (size === undefined) break;
    sizes.push(size);
    total += size;
  }
  let out = scratch;
  if (total + 1 > SCRATCH_MAX) out = Buffer.allocUnsafe(total + 1);
  else if (scratch.length < total + 1) out = scratch = Buffer.allocUnsafe(SCRATCH_MAX);
  let done = 0;
  let write = 1;
  let events = 0;
  let error: string | null = sizes.length < frames.length ? 'zstd frame has no valid content size' : null;
  for (let i = 0; i < sizes.length; i++) {
    const frame = frames[i]!;
    const end = write + sizes[i]!;
    try {
      decompressFrameInto(frame.bytes, out.subarray(write, end));
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
      break;
    }
    if (frame.count === 0) {
      if (end !== write) {
        error = 'non-empty block with zero events';
        break;
      }
    } else {
      if (out[end - 1] !== NEWLINE) {
        error = 'block does not end with a newline';
        break;
      }
      let lines = 0;
      for (let nl = out.indexOf(NEWLINE, write); nl >= 0 && nl < end; nl = out.indexOf(NEWLINE, nl + 1)) {
        out[nl] = COMMA;
        lineEnds?.push(nl);
        lines++;
      }
      if (lines !== frame.count) {
        error = `expected ${frame.count} events, found ${lines} lines`;
        break;
      }
    }
    events += frame.count;
    write = end;
    done++;
  }
  return { out, end: write, events, done, error };
}

/** `[` + the comma-separated lines in out[1, end) + `]`, as one string. */
function arrayText(out: Buffer, end: number): string {
  out[0] = 0x5b; // '['
  out[end - 1] = 0x5d; // the last ',' becomes ']'
  return out.toString('utf8', 0, end);
}

/**
 * Inflates consecutive event frames into ONE JSON array text: every line's newline becomes `,`
 * and the last one `]`. Lines hold no raw newline (JSON escapes them), so this is exact, and one
 * `JSON.parse` per group is much cheaper than one per line. The buffer is reused: only the
 * string is new garbage.
 */
export function inflateGroup(frames: readonly GroupFrame[]): InflatedGroup {
  const { out, end, events, done, error } = inflateGroupBytes(frames, undefined);
  return { text: events > 0 ? arrayText(out, end) : null, done, error };
}

/** A group inflated with its elidable lines taken out (see `inflateGroupClassified`). */
export interface ClassifiedGroup {
  /** Holds `[` + the kept lines joined by `,` + `]` in bytes [0, keptEnd) — when `kept` > 0. */
  readonly out: Buffer;
  readonly keptEnd: number;
  readonly kept: number;
  /** Events in the first `done` frames. */
  readonly events: number;
  readonly done: number;
  readonly error: string | null;
}

/**
 * Inflates a group and takes out every line whose envelope is plainly written and whose type is
 * not in `dataTypes`: `onElided(index, envelope)` receives it (index within the group), and the
 * other lines are moved down over it, so what remains to parse holds only what a reader of
 * `dataTypes` needs. `firstSeq` is the seq of the group's first event.
 */
export function inflateGroupClassified(
  frames: readonly GroupFrame[],
  dataTypes: ReadonlySet<string>,
  firstSeq: number,
  onElided: (index: number, envelope: PlainEnvelope) => void,
): ClassifiedGroup {
  const lineEnds: number[] = [];
  const { out, done, error, events } = inflateGroupBytes(frames, lineEnds);
  let write = 1;
  let start = 1;
  let kept = 0;
  for (let i = 0; i < events; i++) {
    const end = lineEnds[i]!;
    const plain = plainEnvelope(out, start, end, firstSeq + i, dataTypes);
    if (plain === undefined) {
      // Keep the line and its comma.
      if (write !== start) out.copyWithin(write, start, end + 1);
      write += end + 1 - start;
      kept++;
    } else {
      onElided(i, plain);
    }
    start = end + 1;
  }
  if (kept > 0) {
    out[0] = 0x5b; // '['
    out[write - 1] = 0x5d; // the last ',' becomes ']'
  }
  return { out, keptEnd: write, kept, events, done, error };
}

/**
 * Like `inflateGroup`, for a scan: `text` holds only the lines that must be parsed, and `slots`
 * the elided envelopes (`data: null`) in place, with `null` where the next parsed one goes.
 */
export function inflateGroupElided(
  frames: readonly GroupFrame[],
  dataTypes: ReadonlySet<string>,
  firstSeq: number,
): ElidedGroup {
  const slots: (SessionEvent | null)[] = [];
  const group = inflateGroupClassified(frames, dataTypes, firstSeq, (index, { type, time }) => {
    while (slots.length < index) slots.push(null);
    slots.push(elidedEvent(type, firstSeq + index, time));
  });
  while (slots.length < group.events) slots.push(null);
  const text = group.kept > 0 ? group.out.toString('utf8', 0, group.keptEnd) : null;
  return { text, slots, done: group.done, error: group.error };
}
