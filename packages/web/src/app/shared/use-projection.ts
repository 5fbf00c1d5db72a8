import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';
import type { ProjectionLookup, ProjectionRows } from '@strand/client';
import { useStrand } from './hooks.js';

/**
 * The store's rows of each of `sessionIds`, re-rendering when any of them changes. The store
 * replaces a session's map on change, so the snapshot (the same array while every map is the
 * same) is what `useSyncExternalStore` needs; the one way the views read the projection store.
 */
export function useProjectionRows(sessionIds: readonly string[]): readonly ProjectionRows[] {
  const { store } = useStrand();
  const key = sessionIds.join('\n');
  const ids = useMemo(() => (key === '' ? [] : key.split('\n')), [key]);
  const subscribe = useCallback(
    (notify: () => void) => {
      const disposers = ids.map((id) => store.subscribe(id, notify));
      return () => {
        for (const dispose of disposers) dispose();
      };
    },
    [store, ids],
  );
  const last = useRef<{ ids: readonly string[]; rows: readonly ProjectionRows[] }>({ ids: [], rows: [] });
  // Compared in place (no array per call): a list of 50,000 sessions asks on every store change.
  const snapshot = (): readonly ProjectionRows[] => {
    const cached = last.current;
    if (cached.ids === ids && ids.every((id, index) => store.rows(id) === cached.rows[index]))
      return cached.rows;
    last.current = { ids, rows: ids.map((id) => store.rows(id)) };
    return last.current.rows;
  };
  return useSyncExternalStore(subscribe, snapshot);
}

/** One projection value of `sessionId` (`known: false` until the store has it). */
export function useProjection(sessionId: string, key: string): ProjectionLookup {
  const [rows] = useProjectionRows([sessionId]);
  const row = rows?.get(key);
  return row === undefined ? { known: false } : { known: true, value: row.value, seq: row.seq };
}
