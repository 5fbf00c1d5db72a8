import {
  parseSessionHeader,
  SESSION_HEADER_VERSION,
  SessionError,
  SessionLogOffset,
  type SessionEvent,
  type SessionHeader,
  type SessionSeq,
} from '@strand/session';
import { PersistenceError } from './errors.js';
import type { PersistedSessionSummary, StoredLog, StoredSuffix } from './types.js';

// Rules every backend that stores headers beside rows (SQLite, PostgreSQL) applies the same way.

/** A session's revision as readers see it: its incarnation and its row's write counter. */
export const revisionToken = (incarnation: string, counter: string | number): string =>
  `${incarnation}:${counter}`;

/** The session row's fields a body read returns beside the events. */
export interface StoredSessionFields {
  readonly incarnation: string;
  readonly headerJson: string;
  readonly inherited: number;
  readonly nextSeq: number;
  readonly revision: string | number;
}

/** A suffix read's answer, deep-frozen: the session row's facts and the events from `from`. */
export function storedSuffix(
  id: string,
  row: StoredSessionFields,
  from: SessionSeq,
  events: SessionEvent[],
): StoredSuffix {
  return Object.freeze({
    header: decodeHeader(row.headerJson, id),
    inheritedEventCount: SessionLogOffset(row.inherited),
    incarnation: row.incarnation,
    revision: revisionToken(row.incarnation, row.revision),
    from,
    events: Object.freeze(events),
    cursor: SessionLogOffset(row.nextSeq),
  });
}

/**
 * A session row's list summary, frozen: the same for every store with rows (SQLite, PostgreSQL).
 * `storedBytes` arrives as a number from SQLite and as bigint text from PostgreSQL.
 */
export function storedSummary(
  id: string,
  incarnation: string,
  headerJson: string,
  revision: string | number,
  storedBytes: number | string,
): PersistedSessionSummary {
  return Object.freeze({
    header: decodeHeader(headerJson, id),
    incarnation,
    revision: revisionToken(incarnation, revision),
    storedBytes: Number(storedBytes),
  });
}

/** Decodes a stored header: a newer header version is unsupported, anything else invalid is corrupt. */
export function decodeHeader(json: string, sessionId: string): SessionHeader {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    throw new PersistenceError('PERSISTENCE_CORRUPT', `session ${sessionId}: stored header is not JSON`, {
      cause: error,
      sessionId,
    });
  }
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > SESSION_HEADER_VERSION) {
    throw new PersistenceError(
      'PERSISTENCE_FORMAT_UNSUPPORTED',
      `session ${sessionId}: header version ${version} is newer than this build reads (${SESSION_HEADER_VERSION})`,
      { sessionId },
    );
  }
  let header: SessionHeader;
  try {
    header = parseSessionHeader(raw);
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    throw new PersistenceError('PERSISTENCE_CORRUPT', `session ${sessionId}: ${error.message}`, {
      cause: error,
      sessionId,
    });
  }
  if (header.id !== sessionId) {
    throw new PersistenceError(
      'PERSISTENCE_CORRUPT',
      `session ${sessionId}: stored header names id ${header.id}`,
      {
        sessionId,
      },
    );
  }
  return header;
}

/** The inherited prefix must match the header's `isSeeded` and run contiguously from seq 0. */
export function checkInherited(header: SessionHeader, inherited: readonly SessionEvent[]): void {
  if (header.isSeeded !== inherited.length > 0) {
    throw new SessionError(
      'SESSION_HEADER_INVALID',
      `header.isSeeded=${String(header.isSeeded)} contradicts ${inherited.length} inherited events`,
    );
  }
  inherited.forEach((event, index) => {
    if (event.seq !== index) {
      throw new SessionError(
        'SESSION_SEQ_MISMATCH',
        `inherited events: expected seq ${index}, got ${event.seq}`,
      );
    }
  });
}

/** What a repairing `load` returns once the closers `inspect` computed are durable: they are log now. */
export function withRepairsWritten(
  log: StoredLog,
  written: { readonly revision: string; readonly storedBytes: number },
): StoredLog {
  return Object.freeze({
    ...log,
    events: Object.freeze([...log.events, ...log.repairs]),
    repairs: Object.freeze([]),
    revision: written.revision,
    storedBytes: written.storedBytes,
  });
}
