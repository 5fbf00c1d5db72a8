/**
 * Readiness of a catalog that is not per-session (model catalog, preset roster), as a pure state
 * machine. `last` is the previous complete value: kept during a refresh and after a failed one, so
 * a refresh never blanks what the user sees, and nothing is shown before the first complete load.
 */
export interface CatalogValue<T> {
  readonly value: T;
}

export type CatalogState<T> =
  /** A load is in flight; `last` is the previous complete value, if any. */
  | { readonly status: 'loading'; readonly last: CatalogValue<T> | null }
  /** The latest load completed. */
  | { readonly status: 'ready'; readonly last: CatalogValue<T> }
  /** The latest load failed; `last` is the previous complete value, if any. */
  | { readonly status: 'error'; readonly error: unknown; readonly last: CatalogValue<T> | null };

export function catalogLoading<T>(): CatalogState<T> {
  return { status: 'loading', last: null };
}

export function catalogRefreshing<T>(state: CatalogState<T>): CatalogState<T> {
  return { status: 'loading', last: state.last };
}

export function catalogLoaded<T>(value: T): CatalogState<T> {
  return { status: 'ready', last: { value } };
}

export function catalogFailed<T>(state: CatalogState<T>, error: unknown): CatalogState<T> {
  return { status: 'error', error, last: state.last };
}
