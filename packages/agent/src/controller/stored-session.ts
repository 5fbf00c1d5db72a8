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
 * attached to the store. It is durable when this resolves: a prefix is written by `create`, first
 * events by their awaited append, and a session with neither is materialized (header alone).
 */
export async function createStoredSession(
  persistence: SessionPersistence,
  init: NewStoredSession,
): Promise<Session> {
  const { header } = init;
  const inheritedEvents = init.inheritedEvents ?? [];
  try {
    const firstEvents = init.firstEvents ?? [];
    const { incarnation } = await persistence.create({
      header,
      ...(inheritedEvents.length === 0 ? {} : { inheritedEvents }),
      // With nothing to append, store it now: the id a command answers must survive a restart.
      ...(inheritedEvents.length === 0 && firstEvents.length === 0 ? { materialize: true } : {}),
    });
    const session = new Session({
      header,
      events: inheritedEvents,
      inheritedEventCount: init.inheritedEventCount ?? SessionLogOffset(0),
      incarnation,
      writer: persistenceWriter(persistence, header.id),
    });
    if (firstEvents.length > 0) await session.append(firstEvents);
    return session;
  } catch (cause) {
    throw new AgentError(
      'AGENT_PERSISTENCE_FAILED',
      `creating session ${header.id} failed: ${(cause as Error).message}`,
      { cause, sessionId: header.id },
    );
  }
}
