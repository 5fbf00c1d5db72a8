/*
 * The list's filters in the page's query string (`?cwd=…&harness=…`), so a reload or a shared
 * link keeps them. Only these two parameters are read or written: the rest of the address
 * (the open session's path, `?seq=`) belongs to the page's navigation.
 */

/** The list's (and search's) narrowing: one project and one harness, each `null` for all. */
export interface ListFilter {
  /** Only sessions with this `cwd`; `null` for all. */
  readonly cwd: string | null;
  /** Only sessions of this harness (`STRAND_HARNESS` for Strand's own); `null` for all. */
  readonly harness: string | null;
}

export const NO_FILTER: ListFilter = { cwd: null, harness: null };

const CWD = 'cwd';
const HARNESS = 'harness';

/** The filter a query string (`location.search`) names; absent or empty parameters are "all". */
export function readListFilter(search: string): ListFilter {
  const params = new URLSearchParams(search);
  const value = (name: string): string | null => {
    const raw = params.get(name);
    return raw === null || raw === '' ? null : raw;
  };
  return { cwd: value(CWD), harness: value(HARNESS) };
}

/** `search` with the filter's parameters set (or removed for "all"), everything else kept in order. */
export function writeListFilter(search: string, filter: ListFilter): string {
  const params = new URLSearchParams(search);
  for (const [name, value] of [
    [CWD, filter.cwd],
    [HARNESS, filter.harness],
  ] as const) {
    if (value === null) params.delete(name);
    else params.set(name, value);
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
