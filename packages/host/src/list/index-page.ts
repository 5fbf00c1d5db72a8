import { defined } from '@strand/session';
import type { ListIndexRow, ListIndexStore } from '@strand/projection-cache';
import type { SessionListRow } from '@strand/protocol';
import { decodeListCursor } from './list-cursor.js';
import { filterDigest } from './list-filter.js';
import { listPage, type ListPageQuery, type ListPageResult } from './list-page.js';

/** What the host knows that the index does not: the few sessions attached here, and leases held elsewhere. */
export interface ListOverlay {
  /** Rows of the sessions live here, with their current live hints and busy flag. */
  readonly live: readonly SessionListRow[];
  /** Cold sessions another host holds the lease of: listed `busy` and `ownedElsewhere`. */
  readonly elsewhere: ReadonlySet<string>;
}

/**
 * One `session.list` page answered from the list index, held to `listPage`: the index answers
 * the filter less `busy` after the cursor in the list order; the overlay's rows replace theirs.
 *
 * Why this is exact: the page `listPage` would cut from every row is the first `limit` (+1, to
 * know a next page exists) matching rows after the cursor. The index is asked for `limit` + the
 * overlay's size + 1 rows; overlaying removes at most the overlay's size of them (live ids are
 * replaced, rows busy elsewhere fail `busy: false`), so either the index ran out (every candidate
 * is here) or at least `limit` + 1 of its rows survive, all ahead of any row it did not return.
 * `listPage` over those candidates and the live rows then cuts the same page. `busy: true` lists
 * only overlay sessions (busy is a host-side fact), read by id.
 */
export async function indexPage(
  index: ListIndexStore,
  overlay: ListOverlay,
  query: ListPageQuery,
): Promise<ListPageResult<SessionListRow>> {
  const { busy, ...filter } = query.filter;
  const liveIds = new Set(overlay.live.map((row) => row.id));
  let stored: readonly ListIndexRow[];
  if (busy === true) {
    stored = await index.rows([...overlay.elsewhere].filter((id) => !liveIds.has(id)));
  } else {
    const decoded =
      query.cursor === undefined ? undefined : decodeListCursor(query.cursor, filterDigest(query.filter));
    if (decoded?.kind === 'invalid') return { kind: 'cursor-invalid', problem: decoded.problem };
    stored = await index.page({
      filter,
      after: decoded?.after,
      limit: query.limit + liveIds.size + overlay.elsewhere.size + 1,
    });
  }
  const rows: SessionListRow[] = [...overlay.live];
  for (const row of stored) {
    if (liveIds.has(row.header.id)) continue;
    rows.push(coldRow(row, overlay.elsewhere.has(row.header.id)));
  }
  return listPage(rows, query);
}

/**
 * The rows of these sessions (`session.list` with `ids`), in no order: the live ones from the
 * overlay, the rest from the index by id. An id with no row is left out (deleted, or never listed).
 */
export async function indexRowsById(
  index: ListIndexStore,
  overlay: ListOverlay,
  ids: ReadonlySet<string>,
): Promise<SessionListRow[]> {
  const rows = overlay.live.filter((row) => ids.has(row.id));
  const liveIds = new Set(rows.map((row) => row.id));
  for (const row of await index.rows([...ids].filter((id) => !liveIds.has(id))))
    rows.push(coldRow(row, overlay.elsewhere.has(row.header.id)));
  return rows;
}

function coldRow(row: ListIndexRow, ownedElsewhere: boolean): SessionListRow {
  return {
    id: row.header.id,
    header: row.header,
    live: false,
    busy: ownedElsewhere,
    ...(ownedElsewhere ? { ownedElsewhere } : {}),
    ...defined({ hints: row.hints }),
  };
}
