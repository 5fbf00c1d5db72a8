import { persistenceWriter } from '@strand/persistence';
import type { StrandRuntime } from '@strand/runtime';
import { Session, SessionId, newSessionHeader } from '@strand/session';

/**
 * A session created in `runtime` and attached to its live store, as a host runs one, with
 * `ticks` `x/tick` events (`data.i` = 0, 1, …) already appended: a test appends more while a
 * follower watches, and the host delivers them live.
 */
export async function liveSession(runtime: StrandRuntime, id: string, ticks: number): Promise<Session> {
  const header = newSessionHeader({ id: SessionId(id) });
  const { incarnation } = await runtime.services.persistence.create({ header });
  const session = new Session({
    header,
    incarnation,
    writer: persistenceWriter(runtime.services.persistence, header.id),
  });
  runtime.services.store.attach(session);
  for (let i = 0; i < ticks; i++) await session.append({ type: 'x/tick', data: { i } });
  return session;
}
