import type { SessionEvent, SessionEventInput, SessionHeader } from '@strand/session';

const HEADER_KEYS = [
  'id',
  'createdAt',
  'cwd',
  'parentSession',
  'origin',
  'delegationDepth',
  'agentPreset',
  'forkedFrom',
  'isSeeded',
] as const;

/**
 * Header equality on the logical fields (the format version is the store's business). A session
 * imported before headers said where it came from differs here, so it is created again once.
 */
export function headersEqual(a: SessionHeader, b: SessionHeader): boolean {
  return (
    HEADER_KEYS.every((key) => a[key] === b[key]) &&
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
