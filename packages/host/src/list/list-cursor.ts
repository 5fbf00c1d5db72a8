import { createHash, timingSafeEqual } from 'node:crypto';
import type { ListSortKey } from './list-order.js';

/*
 * A `session.list` cursor: the last row's sort key and the filter's digest (keyset paging, so a
 * page continues after a key rather than at an offset, and rows inserted meanwhile never shift
 * it), plus a checksum so altered bytes are refused rather than read as another position. The
 * checksum is not a secret: a client that forges a well-formed cursor only chooses where its own
 * listing starts. No host state backs a cursor, so it stays good across restarts and hosts.
 */

const VERSION = 1;
const CHECKSUM_BYTES = 12;

export type CursorProblem = 'malformed' | 'altered' | 'other-filter';

export type DecodedCursor =
  | { readonly kind: 'ok'; readonly after: ListSortKey }
  | { readonly kind: 'invalid'; readonly problem: CursorProblem };

function checksum(payload: Buffer): Buffer {
  return createHash('sha256')
    .update('strand/list-cursor\u0000')
    .update(payload)
    .digest()
    .subarray(0, CHECKSUM_BYTES);
}

export function encodeListCursor(after: ListSortKey, digest: string): string {
  const payload = Buffer.from(JSON.stringify([VERSION, after.at, after.id, digest]), 'utf8');
  return `${payload.toString('base64url')}.${checksum(payload).toString('base64url')}`;
}

/** Base64url text that decodes to these bytes and back to itself (no ignored trailing bits). */
function canonicalBytes(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/** Reads a cursor issued under the filter whose digest is `digest`; never throws. */
export function decodeListCursor(cursor: string, digest: string): DecodedCursor {
  const parts = cursor.split('.');
  if (parts.length !== 2) return { kind: 'invalid', problem: 'malformed' };
  const payload = canonicalBytes(parts[0]!);
  const sum = canonicalBytes(parts[1]!);
  if (payload === undefined || sum === undefined) return { kind: 'invalid', problem: 'malformed' };
  if (sum.length !== CHECKSUM_BYTES || !timingSafeEqual(sum, checksum(payload)))
    return { kind: 'invalid', problem: 'altered' };
  let fields: unknown;
  try {
    fields = JSON.parse(payload.toString('utf8'));
  } catch {
    // A checksum over bytes that are not JSON: only a forger writes that; it is malformed.
    return { kind: 'invalid', problem: 'malformed' };
  }
  if (
    !Array.isArray(fields) ||
    fields.length !== 4 ||
    fields[0] !== VERSION ||
    typeof fields[1] !== 'number' ||
    !Number.isFinite(fields[1]) ||
    typeof fields[2] !== 'string' ||
    typeof fields[3] !== 'string'
  )
    return { kind: 'invalid', problem: 'malformed' };
  if (fields[3] !== digest) return { kind: 'invalid', problem: 'other-filter' };
  return { kind: 'ok', after: { at: fields[1], id: fields[2] } };
}
