import type { SessionListRow } from '@strand/protocol';
import type { ProjectionStore, StoreResult } from './projection-store.js';

/**
 * Feeds `session.list` rows' hints to the shared store. A row without hints changes nothing: its
 * projections stay unknown (never filled with empty values or deployment defaults).
 */
export function applySessionList(
  store: ProjectionStore,
  rows: readonly SessionListRow[],
): ReadonlyMap<string, StoreResult> {
  const results = new Map<string, StoreResult>();
  for (const row of rows) {
    if (row.hints !== undefined) results.set(row.id, store.applyHints(row.id, row.hints));
  }
  return results;
}
