import { lastActivityOf, type SessionListRow } from '@strand/protocol';

/** A row's place in the `session.list` order: last activity descending, then id. */
interface ListKey {
  readonly at: number;
  readonly id: string;
}

/**
 * The session list as far as it was read: the rows of the pages loaded so far (by id; the view
 * sorts them), where the next page starts (`null`: none follows) and the key of the last row
 * read (`null` once nothing follows). Pure transitions, so a property holds them.
 */
export interface ListPages {
  readonly rows: ReadonlyMap<string, SessionListRow>;
  readonly nextCursor: string | null;
  readonly tail: ListKey | null;
}

/** The first page, replacing whatever was read before. */
export function firstPage(rows: readonly SessionListRow[], nextCursor: string | undefined): ListPages {
  return nextPage({ rows: new Map(), nextCursor: null, tail: null }, rows, nextCursor);
}

/** A further page: its rows added (a row read again, its key moved meanwhile, replaced). */
export function nextPage(
  pages: ListPages,
  rows: readonly SessionListRow[],
  nextCursor: string | undefined,
): ListPages {
  const merged = new Map(pages.rows);
  for (const row of rows) merged.set(row.id, row);
  const last = rows.at(-1);
  const tail = nextCursor === undefined ? null : last === undefined ? pages.tail : keyOf(last);
  return { rows: merged, nextCursor: nextCursor ?? null, tail };
}

/**
 * Rows a `list.changed` named, re-read (`session.list {ids: asked}`): an asked id that came back
 * without a row is gone (deleted); a returned row replaces its id's, or is added when it sorts
 * within the pages read (a new session sorts first). One that sorts past them is left for its
 * page, so the list never shows a row beyond a gap of rows not read yet.
 */
export function rereadRows(
  pages: ListPages,
  asked: readonly string[],
  rows: readonly SessionListRow[],
): ListPages {
  const merged = new Map(pages.rows);
  for (const id of asked) merged.delete(id);
  for (const row of rows)
    if (pages.rows.has(row.id) || pages.tail === null || !after(keyOf(row), pages.tail))
      merged.set(row.id, row);
  return { ...pages, rows: merged };
}

function keyOf(row: SessionListRow): ListKey {
  return { at: lastActivityOf(row), id: row.id };
}

/** `a` comes after `b` in the list order. */
function after(a: ListKey, b: ListKey): boolean {
  return a.at < b.at || (a.at === b.at && a.id > b.id);
}
