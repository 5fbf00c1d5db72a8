import { deepFreezeParsed, type SessionEvent } from '@strand/session';

/**
 * Encodes events as JSON lines. The stored envelope is the in-memory one, so a parsed line is the
 * event itself.
 *
 * Each line is encoded into one buffer of the exact size, not appended to a string first: the
 * string of a whole batch is a rope of its lines, which encoding would copy flat once more.
 */
export function encodeEventLines(events: readonly SessionEvent[]): Buffer {
  const lines = new Array<string>(events.length);
  let bytes = 0;
  for (let i = 0; i < events.length; i++) {
    const line = JSON.stringify(events[i]);
    lines[i] = line;
    bytes += Buffer.byteLength(line, 'utf8') + 1;
  }
  const out = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (const line of lines) {
    at += out.write(line, at, 'utf8');
    out[at++] = 10; // '\n'
  }
  return out;
}

export class EventLineError extends Error {
  constructor(
    message: string,
    readonly seq: number,
  ) {
    super(message);
  }
}

/**
 * Parses a block of `count` JSON lines whose first event must have seq `firstSeq`, validating the
 * envelope and contiguity and deep-freezing each event.
 *
 * The whole block goes through one `JSON.parse` as an array: `bytes` is the block with one spare
 * byte before it, which becomes `[`; each line's newline becomes `,` and the last one `]`. Lines
 * hold no raw newlines (JSON escapes them), so this is exact, and one large parse of one string
 * is markedly cheaper than thousands of small ones plus their string copies.
 */
export function parseEventBlock(bytes: Buffer, firstSeq: number, count: number): SessionEvent[] {
  if (count === 0) {
    if (bytes.length !== 1) throw new EventLineError('non-empty block with zero events', firstSeq);
    return [];
  }
  if (bytes.length < 2 || bytes[bytes.length - 1] !== 10)
    throw new EventLineError('block does not end with a newline', firstSeq);
  bytes[0] = 0x5b; // '['
  let lines = 0;
  for (let nl = bytes.indexOf(10, 1); nl >= 0; nl = bytes.indexOf(10, nl + 1)) {
    bytes[nl] = 0x2c; // ','
    lines++;
  }
  bytes[bytes.length - 1] = 0x5d; // ']'
  if (lines !== count) throw new EventLineError(`expected ${count} events, found ${lines} lines`, firstSeq);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new EventLineError(`bad JSON: ${(error as Error).message}`, firstSeq);
  }
  const events = parsed as unknown[];
  if (!Array.isArray(events) || events.length !== count)
    throw new EventLineError(`expected ${count} events`, firstSeq);
  for (let i = 0; i < count; i++) checkEnvelope(events[i], firstSeq + i);
  return events as SessionEvent[];
}

export function checkEnvelope(raw: unknown, expectedSeq: number): asserts raw is SessionEvent {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new EventLineError('event is not an object', expectedSeq);
  const e = raw as Record<string, unknown>;
  if (typeof e.type !== 'string' || e.type.length === 0) throw new EventLineError('event type', expectedSeq);
  if (e.seq !== expectedSeq)
    throw new EventLineError(`expected seq ${expectedSeq}, got ${String(e.seq)}`, expectedSeq);
  if (!Number.isSafeInteger(e.time)) throw new EventLineError('event time', expectedSeq);
  if (!('data' in e) || Object.keys(e).length !== 4)
    throw new EventLineError('event envelope must be {type, seq, time, data}', expectedSeq);
  if (!deepFreezeParsed(e)) throw new EventLineError('event data holds -0', expectedSeq);
}
