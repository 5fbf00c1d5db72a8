import type { SessionSearchIndex } from '@strand/query';
import type { Session, SessionStore } from '@strand/session';

/**
 * Feeds live sessions' appends to the search index from memory. Appends only mark a session
 * dirty; a short timer indexes the dirty ones, so a burst of appends costs one index transaction
 * and the append path never waits on SQLite.
 */
export function feedLiveSearch(store: SessionStore, index: SessionSearchIndex, delayMs = 250): () => void {
  const dirty = new Set<Session>();
  const unsubscribes = new Map<Session, () => void>();
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    for (const session of dirty) {
      try {
        index.indexLive(session);
      } catch (error) {
        // Derived data: a failed live index is caught up by the next sync.
        console.error(`strand: live search indexing of ${session.id} failed`, error);
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
  return () => {
    stop();
    for (const unsubscribe of unsubscribes.values()) unsubscribe();
    if (timer !== undefined) clearTimeout(timer);
    flush();
  };
}
