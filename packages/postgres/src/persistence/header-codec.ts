import {
  parseSessionHeader,
  SESSION_HEADER_VERSION,
  SessionError,
  type SessionHeader,
} from '@strand/session';
import { PersistenceError } from '@strand/persistence';

/**
 * Decodes a stored header: a newer header version is unsupported, anything else invalid is
 * corrupt, and a header naming another id than its row is corrupt too.
 */
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
