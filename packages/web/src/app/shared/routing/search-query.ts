/*
 * The search box's query in the address (`?q=`), so a reload or a shared link keeps it and
 * back/forward return to it. Only `q` is read or written; the rest of the query string belongs
 * to the route (`?seq=`) and the list's filters (`?cwd=`, `?harness=`).
 */

const Q = 'q';

/** The query a query string names; absent is the empty query. */
export function readSearchQuery(search: string): string {
  return new URLSearchParams(search).get(Q) ?? '';
}

/** `search` with `q` set to `query` (removed when empty), everything else kept in order. */
export function writeSearchQuery(search: string, query: string): string {
  const params = new URLSearchParams(search);
  if (query === '') params.delete(Q);
  else params.set(Q, query);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
