import { PersistenceError } from '../errors.js';

/**
 * Session ids become file names through an injective escaping: `[a-z0-9-]` pass through, every
 * other UTF-8 byte (including `_` and upper case, so case-insensitive file systems stay
 * injective) becomes `_xx`. The result never contains `/`, `.` or `..`, so nothing is ever
 * written outside the root.
 */
const PLAIN = /^[a-z0-9-]$/;
/** Leaves room for suffixes (`.zst`, `.idx`, temp names) under the common 255-byte name limit. */
export const MAX_ESCAPED_LENGTH = 200;

export function escapeSessionId(id: string): string {
  let out = '';
  for (const char of id) {
    if (PLAIN.test(char)) {
      out += char;
      continue;
    }
    for (const byte of Buffer.from(char, 'utf8')) out += '_' + byte.toString(16).padStart(2, '0');
  }
  if (out.length > MAX_ESCAPED_LENGTH) {
    throw new PersistenceError(
      'PERSISTENCE_ID_UNSTORABLE',
      `session id is too long to store as a file name (${out.length} > ${MAX_ESCAPED_LENGTH} escaped characters)`,
      {
        sessionId: id,
      },
    );
  }
  return out;
}

/** Inverse of `escapeSessionId`; undefined for a name that no id escapes to. */
export function unescapeSessionId(name: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < name.length; i++) {
    const char = name[i]!;
    if (char === '_') {
      const hex = name.slice(i + 1, i + 3);
      if (!/^[0-9a-f]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (PLAIN.test(char)) {
      bytes.push(char.charCodeAt(0));
    } else {
      return undefined;
    }
  }
  const decoded = Buffer.from(bytes).toString('utf8');
  return escapeSessionIdOrUndefined(decoded) === name ? decoded : undefined;
}

function escapeSessionIdOrUndefined(id: string): string | undefined {
  try {
    return escapeSessionId(id);
  } catch {
    // Too long to be a name we wrote: not one of ours.
    return undefined;
  }
}
