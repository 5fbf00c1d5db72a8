import { decodeListCursor, encodeListCursor, type CursorProblem } from './list-cursor.js';
import { filterDigest, matchesFilter, type ListFilter } from './list-filter.js';
import { compareKeys, sortKeyOf, type ListableRow, type ListSortKey } from './list-order.js';

export interface ListPageQuery {
  readonly filter: ListFilter;
  /** Rows per page (the caller has checked its bounds). */
  readonly limit: number;
  readonly cursor?: string | undefined;
}

export type ListPageResult<R> =
  | { readonly kind: 'page'; readonly rows: readonly R[]; readonly nextCursor: string | undefined }
  | { readonly kind: 'cursor-invalid'; readonly problem: CursorProblem };

/**
 * One page of `session.list` over rows in any order: those matching the filter, in the documented
 * order (`compareKeys`), strictly after the cursor's key, at most `limit`; `nextCursor` when more
 * follow. Pure, so an index that answers the same question in its own query can be held to it.
 * A row whose sort key changes between pages may be missed or repeated in that pass; a row that
 * keeps its key is listed exactly once, whatever is inserted meanwhile.
 */
export function listPage<R extends ListableRow>(rows: readonly R[], query: ListPageQuery): ListPageResult<R> {
  const digest = filterDigest(query.filter);
  let after: ListSortKey | undefined;
  if (query.cursor !== undefined) {
    const decoded = decodeListCursor(query.cursor, digest);
    if (decoded.kind === 'invalid') return { kind: 'cursor-invalid', problem: decoded.problem };
    after = decoded.after;
  }
  const keyed: { row: R; key: ListSortKey }[] = [];
  for (const row of rows) {
    if (!matchesFilter(row, query.filter)) continue;
    const key = sortKeyOf(row);
    if (after === undefined || compareKeys(after, key) < 0) keyed.push({ row, key });
  }
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  const page = keyed.slice(0, query.limit);
  const last = page.at(-1);
  return {
    kind: 'page',
    rows: page.map((entry) => entry.row),
    nextCursor:
      keyed.length > page.length && last !== undefined ? encodeListCursor(last.key, digest) : undefined,
  };
}
