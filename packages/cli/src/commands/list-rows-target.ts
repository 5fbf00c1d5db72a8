import type { CreateSessionInput, SessionPersistence } from '@strand/persistence';
import type { ProjectionCache } from '@strand/projection-cache';
import type { SessionId } from '@strand/session';

/**
 * The persistence a `serve --watch` live ingest writes through, keeping the list index in step:
 * a session it creates gets its list row at once (header facts; its hints come with the cache
 * rows its appends write), one it deletes loses it. Every other call goes to `persistence` as is.
 */
export function keepingListRows(persistence: SessionPersistence, cache: ProjectionCache): SessionPersistence {
  return new Proxy(persistence, {
    get(target, property) {
      if (property === 'create')
        return async (input: CreateSessionInput) => {
          const created = await target.create(input);
          cache.noteSession({ header: input.header, incarnation: created.incarnation });
          return created;
        };
      if (property === 'delete')
        return async (id: SessionId) => {
          await target.delete(id);
          cache.dropSession(id);
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
