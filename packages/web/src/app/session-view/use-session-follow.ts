import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { FollowView, SessionFollower } from '@strand/client';
import { useStrand } from '../shared/hooks.js';

const ignore = (): void => undefined;

/**
 * Follows `sessionId` while the view is mounted and returns the follower shown and its view (the
 * follower's own snapshot, through `useSyncExternalStore`). A new id follows anew at once; turning
 * `interactive` on re-follows, and the read-only follower stays shown until the interactive one
 * has its snapshot (or failed), so the transcript never blanks. A follower superseded before it
 * was shown, and every follower replaced, is unfollowed.
 */
export function useSessionFollow(
  sessionId: string,
  { interactive }: { readonly interactive: boolean },
): { readonly follower: SessionFollower | null; readonly view: FollowView | null } {
  const strand = useStrand();
  const [follower, setFollower] = useState<SessionFollower | null>(null);
  const shown = useRef<SessionFollower | null>(null);
  useEffect(() => {
    let superseded = false;
    const next = strand.newFollower();
    const previous = shown.current;
    const show = (): void => {
      if (superseded) {
        void next.unfollow().catch(ignore);
        return;
      }
      shown.current = next;
      setFollower(next);
      if (previous !== null) void previous.unfollow().catch(ignore);
    };
    // Failures show through view.error.
    const opened = next.follow(sessionId, { interactive });
    if (interactive && previous !== null) opened.then(show, show);
    else {
      show();
      opened.catch(ignore);
    }
    return () => {
      superseded = true;
    };
  }, [strand, sessionId, interactive]);
  useEffect(
    () => () => {
      void shown.current?.unfollow().catch(ignore);
      shown.current = null;
    },
    [],
  );
  const subscribe = useCallback(
    (notify: () => void) => (follower === null ? ignore : follower.subscribe(notify)),
    [follower],
  );
  const view = useSyncExternalStore(subscribe, () => follower?.view ?? null);
  return { follower, view };
}
