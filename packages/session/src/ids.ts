import { SessionError } from './errors.js';

declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A session id: 1–128 UTF-16 units, no control characters, well-formed Unicode. */
export type SessionId = Brand<string, 'SessionId'>;
/** The index of an event in its log (0, 1, 2, …). */
export type SessionSeq = Brand<number, 'SessionSeq'>;
/** A count of events: a cut between events. Event `e` is before cut `c` iff `e.seq < c`. */
export type SessionLogOffset = Brand<number, 'SessionLogOffset'>;

// eslint-disable-next-line no-control-regex -- control characters are exactly what ids may not hold
const CONTROL = /[\u0000-\u001f\u007f]/;
// Lone surrogates do not survive every file system or UTF-8 round trip (String#isWellFormed is ES2024).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function SessionId(value: string): SessionId {
  if (typeof value !== 'string' || value.length === 0 || value.length > 128) {
    throw new SessionError(
      'SESSION_ID_INVALID',
      `session id must be 1–128 characters, got ${JSON.stringify(value)}`,
    );
  }
  if (CONTROL.test(value) || LONE_SURROGATE.test(value)) {
    throw new SessionError(
      'SESSION_ID_INVALID',
      `session id has control or unpaired surrogate characters: ${JSON.stringify(value)}`,
    );
  }
  return value as SessionId;
}

export function isSessionId(value: unknown): value is SessionId {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= 128 &&
    !CONTROL.test(value) &&
    !LONE_SURROGATE.test(value)
  );
}

export function SessionSeq(value: number): SessionSeq {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`a seq is a non-negative integer, got ${value}`);
  return value as SessionSeq;
}

export function SessionLogOffset(value: number): SessionLogOffset {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`a log offset is a non-negative integer, got ${value}`);
  return value as SessionLogOffset;
}

/** The seq of the last event folded at `cut` (−1 for an empty prefix): what `asOfSeq` carries. */
export function asOfSeqAt(cut: SessionLogOffset): number {
  return cut - 1;
}
