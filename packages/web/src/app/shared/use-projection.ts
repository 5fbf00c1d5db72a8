import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';
import type { ProjectionLookup, ProjectionRows } from '@strand/client';
import { useStrand } from './hooks.js';

/**
 * The store's rows of each of `sessionIds`, re-rendering when any of them changes; the one way
 * the views read the projection store. The external snapshot is a change counter, not the rows:
 * a list of 50,000 sessions may hear thousands of changes in one burst (hints arriving), and
 * `useSyncExternalStore` asks for the snapshot on each — O(1) here, while the rows are gathered
 * once per render (React batches the burst into one).
 */
export function useProjectionRows(sessionIds: readonly string[]): readonly ProjectionRows[] {
  const { store } = useStrand();
  const key = sessionIds.join('\n');
  const ids = useMemo(() => (key === '' ? [] : key.split('\n')), [key]);
  const changes = useRef(0);
  const rendered = useRef<readonly ProjectionRows[]>([]);
  const subscribe = useCallback(
    (notify: () => void) => {
      const changed = (): void => {
        changes.current++;
        notify();
      };
      const disposers = ids.map((id) => store.subscribe(id, changed));
      // A change between the render and this subscription was heard by no one: count it now.
      if (ids.some((id, index) => store.rows(id) !== rendered.current[index])) changed();
      return () => {
        for (const dispose of disposers) dispose();
      };
    },
    [store, ids],
  );
  const seen = useSyncExternalStore(subscribe, () => changes.current);
  const rows = useMemo(
    () => ids.map((id) => store.rows(id)),
    // `seen` moves on every change of a listed session's rows.
    [store, ids, seen],
  );
  rendered.current = rows;
  return rows;
}

/** One projection value of `sessionId` (`known: false` until the store has it). */
export function useProjection(sessionId: string, key: string): ProjectionLookup {
  const [rows] = useProjectionRows([sessionId]);
  const row = rows?.get(key);
  return row === undefined ? { known: false } : { known: true, value: row.value, seq: row.seq };
}
