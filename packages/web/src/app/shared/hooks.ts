import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import {
  FollowDrafts,
  type CatalogState,
  type ConnectionState,
  type FollowDraft,
  type FollowView,
  type ProjectionLookup,
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

/** Re-renders whenever a projection row of `sessionId` changes; returns a version counter. */
export function useProjectionVersion(sessionId: string | null): number {
  const { store } = useStrand();
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (sessionId === null) return undefined;
    setVersion((v) => v + 1);
    return store.subscribe(sessionId, () => setVersion((v) => v + 1));
  }, [store, sessionId]);
  return version;
}

/** Re-renders on every change of the store rows of any of `sessionIds`. */
export function useProjectionVersions(sessionIds: readonly string[]): number {
  const { store } = useStrand();
  const [version, setVersion] = useState(0);
  const key = sessionIds.join('\n');
  useEffect(() => {
    const bump = (): void => setVersion((v) => v + 1);
    const disposers = key === '' ? [] : key.split('\n').map((id) => store.subscribe(id, bump));
    bump();
    return () => {
      for (const dispose of disposers) dispose();
    };
  }, [store, key]);
  return version;
}

export function useProjection(sessionId: string, key: string): ProjectionLookup {
  const { store } = useStrand();
  useProjectionVersion(sessionId);
  return store.get(sessionId, key);
}

export function useFollowView(follower: SessionFollower | null): FollowView | null {
  const [view, setView] = useState<FollowView | null>(follower?.view ?? null);
  useEffect(() => {
    if (follower === null) {
      setView(null);
      return undefined;
    }
    setView(follower.view);
    return follower.subscribe(setView);
  }, [follower]);
  return view;
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
