import { useEffect, useRef, useState } from 'react';
import { useConnectionState, useStrand } from '../hooks.js';
import { sessionCosts, type RowCost } from './session-costs.js';

/**
 * Costs change only when a model answers, and pricing a whole corpus costs the host one pass over
 * its usage rows (about 300 ms for 10,000 sessions): asked on opening, when the list is refreshed
 * on purpose, and then this often — not at the list's own 4 s pace.
 */
const COST_REFRESH_MS = 30_000;
const NONE: ReadonlyMap<string, RowCost> = new Map();

/**
 * Every session's cost for the list rows, from one `usage.summary` `by: 'session'` call. A failed
 * call keeps the costs already shown (they are hints; the session view has the exact figure).
 */
export function useSessionCosts(refreshKey: number): ReadonlyMap<string, RowCost> {
  const { connection } = useStrand();
  const state = useConnectionState();
  const [costs, setCosts] = useState<ReadonlyMap<string, RowCost>>(NONE);
  const asking = useRef(false);

  useEffect(() => {
    if (state !== 'open') return undefined;
    let current = true;
    const ask = (): void => {
      if (asking.current) return;
      asking.current = true;
      connection
        .call('usage.summary', { by: 'session' })
        .then(
          ({ rows }) => {
            if (current) setCosts(sessionCosts(rows));
          },
          () => undefined,
        )
        .finally(() => {
          asking.current = false;
        });
    };
    ask();
    const timer = setInterval(ask, COST_REFRESH_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [connection, state, refreshKey]);

  return costs;
}
