import { persistenceWriter, type SessionPersistence } from '@strand/persistence';
import {
  Session,
  SessionLogOffset,
  type SessionEvent,
  type SessionEventInput,
  type SessionHeader,
} from '@strand/session';
import { AgentError } from '../errors.js';

export interface NewStoredSession {
  readonly header: SessionHeader;
  readonly inheritedEvents?: readonly SessionEvent[];
  readonly inheritedEventCount?: SessionLogOffset;
  /** Appended (durably) before the session is handed out, so no reader sees it without them. */
  readonly firstEvents?: readonly SessionEventInput[];
}

/**
 * Creates a session in persistence and returns the live `Session` that writes to it — not yet
 * attached to the store. A session with neither a prefix nor first events reaches storage with
 * its first append (persistence creates lazily).
 */
export async function createStoredSession(
  persistence: SessionPersistence,
  init: NewStoredSession,
): Promise<Session> {
  const { header } = init;
  const inheritedEvents = init.inheritedEvents ?? [];
  try {
    const { incarnation } = await persistence.create({
      header,
      ...(inheritedEvents.length === 0 ? {} : { inheritedEvents }),
    });
    const session = new Session({
      header,
      events: inheritedEvents,
      inheritedEventCount: init.inheritedEventCount ?? SessionLogOffset(0),
      incarnation,
      writer: persistenceWriter(persistence, header.id),
    });
    if (init.firstEvents !== undefined && init.firstEvents.length > 0) await session.append(init.firstEvents);
    return session;
  } catch (cause) {
    throw new AgentError(
      'AGENT_PERSISTENCE_FAILED',
      `creating session ${header.id} failed: ${(cause as Error).message}`,
      { cause, sessionId: header.id },
    );
  }
}
