import {
  SESSION_HEADER_KEYS,
  type SessionEvent,
  type SessionEventInput,
  type SessionHeader,
} from '@strand/session';

/**
 * The header's fields compared as plain values: all of them (`SESSION_HEADER_KEYS`) but the format
 * version, which is the store's business, and `source`, an object compared field by field below.
 */
const COMPARED_KEYS = SESSION_HEADER_KEYS.filter((key) => key !== 'version' && key !== 'source');

/**
 * Header equality on the logical fields. A session imported before headers said where it came
 * from differs here, so it is created again once.
 */
export function headersEqual(a: SessionHeader, b: SessionHeader): boolean {
  return (
    COMPARED_KEYS.every((key) => a[key] === b[key]) &&
    a.source?.harness === b.source?.harness &&
    a.source?.sourceId === b.source?.sourceId
  );
}

/**
 * True if `stored` is a prefix of `inherited ++ own`: same type, time and data, in order.
 * Data is compared by its JSON text: both sides come from the same deterministic mapping (the
 * stored side through a lossless JSON round trip, which keeps key order), so equal mappings give
 * equal text and any difference means the transcript diverged.
 */
export function isPrefixOf(
  stored: readonly SessionEvent[],
  inherited: readonly SessionEvent[],
  own: readonly SessionEventInput[],
): boolean {
  if (stored.length > inherited.length + own.length) return false;
  for (let i = 0; i < stored.length; i++) {
    const have = stored[i]!;
    const want = i < inherited.length ? inherited[i]! : own[i - inherited.length]!;
    if (have.type !== want.type || have.time !== want.time) return false;
    if (JSON.stringify(have.data) !== JSON.stringify(want.data)) return false;
  }
  return true;
}
