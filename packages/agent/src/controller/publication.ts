import {
  isPersistenceError,
  type PublicationReservation,
  type SessionPreparations,
} from '@strand/persistence';
import type { SessionObservation } from '@strand/query';
import { SessionError, type Session, type SessionStore } from '@strand/session';
import { AgentError } from '../errors.js';

/**
 * Publishes the prepared session behind a retained cold observation to the live store, without
 * reading the log again: the observation's lease pins the prepared entry, so reserving it finds
 * the same decode and `publish` builds the live `Session` from it (writing any crash-repair
 * closers). The observation is not disposed here; its lease must outlive the reservation.
 */
export async function publishObserved(
  preparations: SessionPreparations,
  store: SessionStore,
  observation: SessionObservation,
): Promise<Session> {
  const id = observation.header.id;
  if (observation.disposed || observation.source !== 'cold' || !observation.hasPreparedSource) {
    throw new AgentError(
      'AGENT_PROMOTION_UNPREPARED',
      `session ${id} can be promoted only from a retained cold observation backed by a prepared log`,
      {
        sessionId: id,
      },
    );
  }
  let reservation: PublicationReservation;
  try {
    reservation = await preparations.reserve(id);
  } catch (cause) {
    if (isPersistenceError(cause, 'PERSISTENCE_RESERVED')) {
      throw new AgentError(
        'AGENT_SESSION_LIVE_ELSEWHERE',
        `session ${id} is being published by someone else`,
        { cause, sessionId: id },
      );
    }
    throw new AgentError('AGENT_PERSISTENCE_FAILED', `reserving session ${id} failed`, {
      cause,
      sessionId: id,
    });
  }
  if (reservation.prepared.revision !== observation.revision) {
    reservation.release();
    throw new AgentError(
      'AGENT_PROMOTION_STALE',
      `session ${id} changed after it was observed; follow it again`,
      { sessionId: id },
    );
  }
  try {
    return await reservation.publish(store);
  } catch (cause) {
    if (cause instanceof SessionError && cause.code === 'SESSION_ALREADY_ATTACHED') {
      throw new AgentError('AGENT_SESSION_LIVE_ELSEWHERE', `session ${id} became live elsewhere`, {
        cause,
        sessionId: id,
      });
    }
    if (isPersistenceError(cause, 'PERSISTENCE_SEQ_CONFLICT')) {
      throw new AgentError(
        'AGENT_PROMOTION_STALE',
        `session ${id} changed after it was observed; follow it again`,
        { cause, sessionId: id },
      );
    }
    throw new AgentError('AGENT_PERSISTENCE_FAILED', `publishing session ${id} failed`, {
      cause,
      sessionId: id,
    });
  }
}
