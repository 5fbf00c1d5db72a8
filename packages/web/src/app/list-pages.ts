import type { SessionListRow } from '@strand/protocol';

/**
 * The session list as far as it was read: the rows of the pages loaded so far (by id; the view
 * sorts them) and where the next page starts (`null`: none follows). Pure transitions, so a
 * property holds them.
 */
export interface ListPages {
  readonly rows: ReadonlyMap<string, SessionListRow>;
  readonly nextCursor: string | null;
}

/** The first page, replacing whatever was read before. */
export function firstPage(rows: readonly SessionListRow[], nextCursor: string | undefined): ListPages {
  return { rows: new Map(rows.map((row) => [row.id, row])), nextCursor: nextCursor ?? null };
}

/** A further page: its rows added (a row read again, its key moved meanwhile, replaced). */
export function nextPage(
  pages: ListPages,
  rows: readonly SessionListRow[],
  nextCursor: string | undefined,
): ListPages {
  const merged = new Map(pages.rows);
  for (const row of rows) merged.set(row.id, row);
  return { rows: merged, nextCursor: nextCursor ?? null };
}

/**
 * Rows a `list.changed` named, re-read (`session.list {ids: asked}`): each returned row replaces
 * or adds its id; an asked id that came back without a row is gone (deleted). A new session is
 * added wherever its activity sorts it, even past the loaded pages: it was told, so it is shown.
 */
export function rereadRows(pages: ListPages, asked: readonly string[], rows: readonly SessionListRow[]): ListPages {
  const merged = new Map(pages.rows);
  for (const id of asked) merged.delete(id);
  for (const row of rows) merged.set(row.id, row);
  return { rows: merged, nextCursor: pages.nextCursor };
}
