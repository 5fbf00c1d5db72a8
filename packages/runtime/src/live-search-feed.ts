import { silentLogger, type Logger, type Session, type SessionStore } from '@strand/session';
import type { RuntimeSearchIndex } from './stores.js';

/**
 * Feeds live sessions' appends to the search index from memory. Appends only mark a session
 * dirty; a short timer indexes the dirty ones, so a burst of appends costs one index transaction
 * and the append path never waits on the index. An asynchronous index (PostgreSQL) settles its
 * work later: the returned stop resolves once the last of it has, so the index can close after.
 */
export function feedLiveSearch(
  store: SessionStore,
  index: RuntimeSearchIndex,
  logger: Logger = silentLogger,
  delayMs = 250,
): () => Promise<void> {
  const dirty = new Set<Session>();
  const pending = new Set<Promise<unknown>>();
  const unsubscribes = new Map<Session, () => void>();
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    for (const session of dirty) {
      // Derived data: a failed live index is caught up by the next sync.
      const failed = (error: unknown): void =>
        logger.error('live search indexing failed', { sessionId: session.id, error });
      try {
        // A database engine queues the work and settles later; a file engine is done on return.
        const indexed = index.indexLive(session);
        if (indexed instanceof Promise) {
          const settled = indexed.catch(failed);
          pending.add(settled);
          void settled.finally(() => pending.delete(settled));
        }
      } catch (error) {
        failed(error);
      }
    }
    dirty.clear();
  };
  const watch = (session: Session): void => {
    unsubscribes.set(
      session,
      session.subscribe(() => {
        dirty.add(session);
        timer ??= setTimeout(flush, delayMs);
      }),
    );
  };
  for (const session of store.list()) watch(session);
  const stop = store.subscribe((change) => {
    if (change.kind === 'attached') watch(change.session);
    else {
      unsubscribes.get(change.session)?.();
      unsubscribes.delete(change.session);
      if (dirty.has(change.session)) flush();
    }
  });
  return async () => {
    stop();
    for (const unsubscribe of unsubscribes.values()) unsubscribe();
    if (timer !== undefined) clearTimeout(timer);
    flush();
    await Promise.all(pending);
  };
}
