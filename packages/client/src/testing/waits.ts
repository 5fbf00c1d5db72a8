/** Waits on a follower's or a store's own change notifications, never on a clock (test-only). */
import type { FollowView } from '../follow/follow-view.js';
import type { SessionFollower } from '../follow/session-follower.js';
import type { ProjectionStore } from '../projection-store/projection-store.js';

/** Resolves with the first view (the current one included) that satisfies `predicate`. */
export function untilView(
  follower: SessionFollower,
  predicate: (view: FollowView) => boolean,
): Promise<FollowView> {
  if (predicate(follower.view)) return Promise.resolve(follower.view);
  return new Promise((resolve) => {
    const off = follower.subscribe((view) => {
      if (!predicate(view)) return;
      off();
      resolve(view);
    });
  });
}

/** Resolves once `read()` matches `expected` (checked now and after each change of `sessionId`'s rows). */
export function untilStore(
  store: ProjectionStore,
  sessionId: string,
  read: () => unknown,
  expected: Record<string, unknown>,
): Promise<void> {
  const matches = (): boolean => {
    const value = read() as Record<string, unknown>;
    return Object.entries(expected).every(([key, wanted]) => value[key] === wanted);
  };
  if (matches()) return Promise.resolve();
  return new Promise((resolve) => {
    const off = store.subscribe(sessionId, () => {
      if (!matches()) return;
      off();
      resolve();
    });
  });
}
