import {
  parseSessionHeader,
  SESSION_HEADER_VERSION,
  SessionLogOffset,
  type SessionHeader,
  defined,
} from '@strand/session';
import { PersistenceError } from '../errors.js';

/** The first record of every session file: the logical header plus what is stored beside it. */
export interface HeaderRecord {
  readonly format: 'strand-session';
  readonly formatVersion: number;
  readonly incarnation: string;
  /** The exact inherited cut, stored beside the header (never in it). */
  readonly inheritedEventCount: SessionLogOffset;
  readonly header: SessionHeader;
}

export const FILE_FORMAT_VERSION = 1;

export function encodeHeaderRecord(
  header: SessionHeader,
  incarnation: string,
  inheritedEventCount: number,
): Buffer {
  const record = {
    format: 'strand-session',
    formatVersion: FILE_FORMAT_VERSION,
    incarnation,
    inheritedEventCount,
    header,
  };
  return Buffer.from(JSON.stringify(record) + '\n', 'utf8');
}

/** Validates a parsed header record; names the session and says what is wrong. */
export function parseHeaderRecord(raw: unknown, sessionId: string): HeaderRecord {
  const corrupt = (why: string, cause?: unknown): never => {
    throw new PersistenceError('PERSISTENCE_CORRUPT', `session ${sessionId}: bad header record (${why})`, {
      sessionId,
      location: { byteOffset: 0, line: 1 },
      ...defined({ cause }),
    });
  };
  if (typeof raw !== 'object' || raw === null) return corrupt('not an object');
  const r = raw as Record<string, unknown>;
  if (r.format !== 'strand-session') return corrupt('not a Strand session file');
  if (!Number.isSafeInteger(r.formatVersion)) return corrupt('formatVersion');
  if ((r.formatVersion as number) > FILE_FORMAT_VERSION) {
    throw new PersistenceError(
      'PERSISTENCE_FORMAT_UNSUPPORTED',
      `session ${sessionId} was written in file format ${String(r.formatVersion)}; this build reads up to ${FILE_FORMAT_VERSION}`,
      { sessionId },
    );
  }
  const header = r.header as Record<string, unknown> | undefined;
  if (
    typeof header === 'object' &&
    header !== null &&
    Number.isSafeInteger(header.version) &&
    (header.version as number) > SESSION_HEADER_VERSION
  ) {
    throw new PersistenceError(
      'PERSISTENCE_FORMAT_UNSUPPORTED',
      `session ${sessionId} has header version ${String(header.version)}; this build reads up to ${SESSION_HEADER_VERSION}`,
      { sessionId },
    );
  }
  if (typeof r.incarnation !== 'string' || r.incarnation.length === 0) return corrupt('incarnation');
  if (!Number.isSafeInteger(r.inheritedEventCount) || (r.inheritedEventCount as number) < 0)
    return corrupt('inheritedEventCount');
  let parsed: SessionHeader;
  try {
    parsed = parseSessionHeader(r.header);
  } catch (error) {
    return corrupt('header', error);
  }
  if (parsed.id !== sessionId) return corrupt(`header names session ${parsed.id}`);
  if (parsed.isSeeded !== (r.inheritedEventCount as number) > 0)
    return corrupt('isSeeded contradicts inheritedEventCount');
  return {
    format: 'strand-session',
    formatVersion: r.formatVersion as number,
    incarnation: r.incarnation,
    inheritedEventCount: SessionLogOffset(r.inheritedEventCount as number),
    header: parsed,
  };
}
