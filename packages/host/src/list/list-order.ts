import { lastActivityOf, type SessionListRow } from '@strand/protocol';

/** What ordering and filtering read of a row: an index row can carry the same facts. */
export type ListableRow = Pick<SessionListRow, 'id' | 'header' | 'busy' | 'hints'>;

/** Where a row sorts: its last activity, then its id. */
export interface ListSortKey {
  /** `listMetadata.lastPromptAt` when the hint knows one, else the header's `createdAt` (ms). */
  readonly at: number;
  readonly id: string;
}

/** The documented order's key — the web list's: `lastActivityOf` (protocol), then the id. */
export function sortKeyOf(row: ListableRow): ListSortKey {
  return { at: lastActivityOf(row), id: row.id };
}

/** Newest activity first, equal times by id ascending: a total order, so keyset paging is exact. */
export function compareKeys(a: ListSortKey, b: ListSortKey): number {
  if (a.at !== b.at) return b.at - a.at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
