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

const NEWLINE = 0x0a;
const COMMA = 0x2c;
/** The scratch buffer never stays larger than this; an outsized group gets a buffer of its own. */
const SCRATCH_MAX = 4 * 1024 * 1024;
let scratch = Buffer.allocUnsafe(256 * 1024);

/**
 * Inflates consecutive event frames into ONE JSON array text: each frame's lines are decompressed
 * side by side into one buffer with a spare byte in front (`[`), every line's newline becomes `,`
 * and the last one `]`. Lines hold no raw newline (JSON escapes them), so this is exact, and one
 * `JSON.parse` per group is much cheaper than one per line. The buffer is reused: only the
 * string is new garbage.
 */
export function inflateGroup(frames: readonly GroupFrame[]): InflatedGroup {
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
  let text: string | null = null;
  if (events > 0) {
    out[0] = 0x5b; // '['
    out[write - 1] = 0x5d; // the last ',' becomes ']'
    text = out.toString('utf8', 0, write);
  }
  return { text, done, error };
}
