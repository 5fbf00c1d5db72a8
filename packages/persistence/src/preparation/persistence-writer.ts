import type { SessionId, SessionWriter } from '@strand/session';
import type { SessionPersistence } from '../types.js';

/** Adapts a persistence to the writer a live `Session` appends through. */
export function persistenceWriter(persistence: SessionPersistence, id: SessionId): SessionWriter {
  return { write: async (events) => void (await persistence.append(id, events)) };
}
