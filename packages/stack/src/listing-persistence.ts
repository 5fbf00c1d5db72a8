import type { CreateSessionInput, SessionPersistence } from '@strand/persistence';
import type { ProjectionCache } from '@strand/projection-cache';
import type { Logger, SessionEvent, SessionHeader, SessionId } from '@strand/session';

/**
 * The persistence every layer of a stack writes through, keeping the list index in step: a
 * session gets its list row (header facts; hints come with the cache rows its appends write) as
 * soon as it is durable, and loses it when deleted — so another host of a shared database lists
 * it at once, and a session nobody attaches (a fork, an import) is listed without a restart.
 *
 * Durable means: at `create` when it writes at once (a seeded prefix or `materialize`), else at
 * its first append (creation is lazy), so a list row is never ahead of the log. A failed list
 * write is logged, never thrown: the session is stored, and the reconcile at the next open gives
 * it its row. Every other call goes to `persistence` as is.
 */
export function listingPersistence(
  persistence: SessionPersistence,
  cache: ProjectionCache,
  logger: Logger,
): SessionPersistence {
  /** Sessions created lazily and not yet written, with what their row will say. */
  const pending = new Map<string, { header: SessionHeader; incarnation: string }>();
  const note = (subject: { header: SessionHeader; incarnation: string }): void => {
    try {
      cache.noteSession(subject);
    } catch (error) {
      logger.warn('a new session got no list row; the next open reconciles it', {
        sessionId: subject.header.id,
        error,
      });
    }
  };
  const create = async (input: CreateSessionInput): Promise<{ readonly incarnation: string }> => {
    const created = await persistence.create(input);
    const subject = { header: input.header, incarnation: created.incarnation };
    if ((input.inheritedEvents?.length ?? 0) > 0 || input.materialize === true) note(subject);
    else pending.set(input.header.id, subject);
    return created;
  };
  const append = async (
    id: SessionId,
    events: readonly SessionEvent[],
  ): Promise<{ readonly revision: string }> => {
    const appended = await persistence.append(id, events);
    const subject = pending.get(id);
    if (subject !== undefined) {
      pending.delete(id);
      note(subject);
    }
    return appended;
  };
  const remove = async (id: SessionId): Promise<void> => {
    await persistence.delete(id);
    pending.delete(id);
    try {
      cache.dropSession(id);
    } catch (error) {
      logger.warn('a deleted session kept its list row; the next open reconciles it', {
        sessionId: id,
        error,
      });
    }
  };
  const wrapped: Partial<SessionPersistence> = { create, append, delete: remove };
  return new Proxy(persistence, {
    get(target, property) {
      if (property === 'create' || property === 'append' || property === 'delete') return wrapped[property];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
