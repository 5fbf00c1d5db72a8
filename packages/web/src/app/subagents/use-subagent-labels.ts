import { useEffect, useRef, useState } from 'react';
import { useStrand } from '../shared/hooks.js';

/** Child id → its descriptor label (null: the child has none), per parent already listed. */
export type SubagentLabels = ReadonlyMap<string, string | null>;

/**
 * The labels of the children of `parentIds` (the parents of the child rows in view): one
 * `subagent.list { scope: 'children' }` per parent, asked once per mounted list, since
 * `session.list`'s hints carry no subagent identity. A parent whose listing fails is left out
 * (its children keep their titles) and is not asked again in a loop.
 */
export function useSubagentLabels(parentIds: readonly string[]): SubagentLabels {
  const { connection } = useStrand();
  const [labels, setLabels] = useState<SubagentLabels>(() => new Map());
  const [asked] = useState(() => new Set<string>());
  const key = parentIds.join('\n');
  // Answers that arrive after a later key are still wanted (each parent is asked once); only an
  // unmounted list drops them.
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  useEffect(() => {
    for (const parent of key === '' ? [] : key.split('\n')) {
      if (asked.has(parent)) continue;
      asked.add(parent);
      connection.call('subagent.list', { id: parent, scope: 'children' }).then(
        ({ rows }) => {
          if (!alive.current) return;
          setLabels((current) => {
            const next = new Map(current);
            for (const row of rows) if (row.kind === 'child') next.set(row.id, row.label ?? null);
            return next;
          });
        },
        // Left out: the rows keep their titles; the next change of the parents in view asks again.
        () => asked.delete(parent),
      );
    }
  }, [connection, asked, key]);
  return labels;
}
