import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import {
  FollowDrafts,
  type CatalogState,
  type ConnectionState,
  type FollowDraft,
  type SessionFollower,
} from '@strand/client';
import type { Strand } from './strand.js';

export const StrandContext = createContext<Strand | null>(null);

export function useStrand(): Strand {
  const strand = useContext(StrandContext);
  if (strand === null) throw new Error('useStrand outside StrandContext');
  return strand;
}

export function useConnectionState(): ConnectionState {
  const { connection } = useStrand();
  return useSyncExternalStore(
    (notify) => connection.onStateChange(notify),
    () => connection.state,
  );
}

export function useCatalog<T>(catalog: {
  readonly state: CatalogState<T>;
  subscribe(listener: (state: CatalogState<T>) => void): () => void;
}): CatalogState<T> {
  return useSyncExternalStore(
    (notify) => catalog.subscribe(notify),
    () => catalog.state,
  );
}

/** The running step's draft of `follower` (`follow.draft`), kept apart from its events; null when none. */
export function useDraft(follower: SessionFollower | null): FollowDraft | null {
  const { connection } = useStrand();
  const [draft, setDraft] = useState<FollowDraft | null>(null);
  useEffect(() => {
    setDraft(null);
    if (follower === null) return undefined;
    const drafts = new FollowDrafts(connection, follower);
    const stop = drafts.subscribe(setDraft);
    return () => {
      stop();
      drafts.close();
    };
  }, [connection, follower]);
  return draft;
}
