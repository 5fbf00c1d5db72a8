import path from 'node:path';
import { strandRegistry } from '@strand/runtime';
import { openJsonlPersistence } from '@strand/persistence';
import { ProjectionCache } from '@strand/projection-cache';
import { SessionLogOffset } from '@strand/session';
import { STORE_FILES } from '@strand/stack';

/** Every stored session's cached title, read from the cache alone (no log is folded). */
export async function cachedTitles(data: string): Promise<Map<string, unknown>> {
  const registry = strandRegistry();
  const cache = ProjectionCache.open({ path: path.join(data, STORE_FILES.projectionCache), registry });
  const persistence = await openJsonlPersistence({ root: data });
  try {
    const out = new Map<string, unknown>();
    for (const summary of await persistence.list()) {
      // None of these sessions is seeded from a parent: the inherited cut is 0.
      const snapshot = cache.cachedSnapshot(summary, SessionLogOffset(0), ['title']);
      out.set(summary.header.id, snapshot?.values.title);
    }
    return out;
  } finally {
    cache.close();
    await persistence.close();
  }
}

/** The list index's usage hours by session id (sessions whose usage it knows). */
export async function indexedUsage(data: string): Promise<Map<string, unknown>> {
  const cache = ProjectionCache.open({
    path: path.join(data, STORE_FILES.projectionCache),
    registry: strandRegistry(),
  });
  try {
    const sessions = (await cache.listIndex?.usage({})) ?? [];
    return new Map(sessions.map((session) => [session.id, session.byHour]));
  } finally {
    cache.close();
  }
}
