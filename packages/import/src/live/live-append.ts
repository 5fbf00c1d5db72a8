import type { SessionPreparations } from '@strand/persistence';
import type { SessionEventInput, SessionId, SessionStore } from '@strand/session';

/** The host's write side live ingest appends through: the live store and its preparations. */
export interface LiveTarget {
  readonly preparations: SessionPreparations;
  readonly store: SessionStore;
}

/**
 * Appends the events a stored session is missing through the live store, so every follower of
 * it receives them at once (the follow hub subscribes when a session attaches, and backfills from
 * the durable prefix). A session already live here is appended to in place; a cold one is
 * published from its prepared log (no second read), appended to, and detached again — as a
 * command on a cold session is. Imported sessions are never crash-repaired, so publishing one
 * writes nothing but these events.
 */
export async function appendThroughStore(
  target: LiveTarget,
  id: SessionId,
  suffix: readonly SessionEventInput[],
): Promise<void> {
  const live = target.store.get(id);
  if (live !== undefined) {
    await live.append(suffix);
    return;
  }
  const reservation = await target.preparations.reserve(id);
  const session = await reservation.publish(target.store);
  try {
    await session.append(suffix);
  } finally {
    target.store.detach(session);
  }
}
