import { useEffect, useRef, useState } from 'react';
import { MAX_LIST_PAGE_LIMIT, type SessionListRow } from '@strand/protocol';
import { useConnectionState, useStrand } from '../shared/hooks.js';
import { mergeCosts, unpricedRows, type RowCost } from './session-costs.js';

const NONE: ReadonlyMap<string, RowCost> = new Map();

/**
 * The cost of each list row the list has read, from `usage.summary { by: 'session', ids }`. A row
 * is priced when it is first read and again whenever the list reads it anew — which it does for
 * exactly the rows a `list.changed` names (a prompt, a settled turn) — so costs follow the
 * corpus without a timer, and a 50,000-session corpus is not priced whole to show its first page.
 * A failed call keeps the costs already shown (they are hints; the session view has the exact
 * figure); `refreshKey` and a reconnect price every read row again.
 */
export function useSessionCosts(
  rows: readonly SessionListRow[] | null,
  refreshKey: number,
): ReadonlyMap<string, RowCost> {
  const { connection } = useStrand();
  const state = useConnectionState();
  const [costs, setCosts] = useState<ReadonlyMap<string, RowCost>>(NONE);
  // The row object each id was last priced from: a re-read row is a new object.
  const priced = useRef(new Map<string, SessionListRow>());

  useEffect(() => {
    priced.current = new Map();
  }, [connection, state, refreshKey]);

  useEffect(() => {
    if (state !== 'open' || rows === null) return;
    const asked = unpricedRows(rows, priced.current);
    if (asked.length === 0) return;
    for (const row of asked) priced.current.set(row.header.id, row);
    for (let start = 0; start < asked.length; start += MAX_LIST_PAGE_LIMIT) {
      const ids = asked.slice(start, start + MAX_LIST_PAGE_LIMIT).map((row) => row.header.id);
      connection.call('usage.summary', { by: 'session', ids }).then(
        ({ rows: usage }) => setCosts((current) => mergeCosts(current, ids, usage)),
        () => undefined,
      );
    }
  }, [connection, state, rows, refreshKey]);

  return costs;
}
