/*
 * Envelope-only reading of one stored JSON line, for scans that do not need an event's `data`.
 * A line is elided only when it is written exactly as Strand writes it —
 * `{"type":"…","seq":N,"time":N,"data":…}` with a plain ASCII type, the expected seq and a
 * non-negative safe integer time — so anything unusual is simply parsed in full by the caller,
 * and judged by the one envelope check. What follows `"data":` is not looked at beyond a closing
 * brace: a scan trusts the frame checksum for the bytes of data it does not need.
 */

const TYPE_OPEN = Buffer.from('{"type":"', 'latin1');
const SEQ_KEY = Buffer.from('","seq":', 'latin1');
const TIME_KEY = Buffer.from(',"time":', 'latin1');
const DATA_KEY = Buffer.from(',"data":', 'latin1');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;
const ZERO = 0x30;
const NINE = 0x39;
/** A safe integer has at most 16 digits; anything longer is parsed in full and judged there. */
const MAX_DIGITS = 16;

function matches(buf: Buffer, pos: number, end: number, literal: Buffer): boolean {
  if (pos + literal.length > end) return false;
  for (let i = 0; i < literal.length; i++) if (buf[pos + i] !== literal[i]) return false;
  return true;
}

/** A JSON natural number at `pos` (no sign, no leading zero): [value, end], or undefined. */
function natural(buf: Buffer, pos: number, end: number): [number, number] | undefined {
  let value = 0;
  let at = pos;
  while (at < end && at - pos < MAX_DIGITS + 1) {
    const c = buf[at]!;
    if (c < ZERO || c > NINE) break;
    value = value * 10 + (c - ZERO);
    at++;
  }
  const digits = at - pos;
  if (digits === 0 || digits > MAX_DIGITS || (digits > 1 && buf[pos] === ZERO)) return undefined;
  if (!Number.isSafeInteger(value)) return undefined;
  return [value, at];
}

/** What an elidable line's envelope holds besides its (expected) seq. */
export interface PlainEnvelope {
  readonly type: string;
  readonly time: number;
}

/**
 * The type and time of the line buf[start, end), when the line may be elided: it is plainly
 * written, its seq is `expectedSeq` and its type is not one of `dataTypes`. Otherwise undefined —
 * the caller parses the line in full. The data itself is neither parsed nor checked.
 */
export function plainEnvelope(
  buf: Buffer,
  start: number,
  end: number,
  expectedSeq: number,
  dataTypes: ReadonlySet<string>,
): PlainEnvelope | undefined {
  if (!matches(buf, start, end, TYPE_OPEN) || buf[end - 1] !== CLOSE_BRACE) return undefined;
  const typeStart = start + TYPE_OPEN.length;
  let at = typeStart;
  for (; at < end; at++) {
    const c = buf[at]!;
    if (c === QUOTE) break;
    if (c === BACKSLASH || c < 0x20 || c > 0x7e) return undefined;
  }
  if (at === typeStart || !matches(buf, at, end, SEQ_KEY)) return undefined;
  const type = buf.toString('latin1', typeStart, at);
  if (dataTypes.has(type)) return undefined;
  const seq = natural(buf, at + SEQ_KEY.length, end);
  if (seq === undefined || seq[0] !== expectedSeq || !matches(buf, seq[1], end, TIME_KEY)) return undefined;
  const time = natural(buf, seq[1] + TIME_KEY.length, end);
  // The data value must be non-empty: `,"data":` then at least one byte before the closing brace.
  if (time === undefined || !matches(buf, time[1], end, DATA_KEY) || time[1] + DATA_KEY.length >= end - 1)
    return undefined;
  return { type, time: time[0] };
}
