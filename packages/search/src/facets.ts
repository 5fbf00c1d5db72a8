import type { SessionHeader } from '@strand/session';

/**
 * What a session is filed under, besides its text: the project it ran in (`cwd`) and the harness it
 * came from. Read from the session's header, which is fixed per incarnation, so a session's facets
 * change only when it is replaced (another incarnation) — exactly when its rows are.
 */
export interface SessionFacets {
  readonly cwd?: string | undefined;
  readonly harness?: string | undefined;
}

/**
 * Which facets a session's header files it under; pure, never throws (one that does files the
 * session under no facet). The index knows no header vocabulary beyond this: the composition root
 * supplies it (`@strand/stack`'s `sessionFacets`), as it supplies the labeler.
 */
export type FacetExtractor = (header: SessionHeader) => SessionFacets;

/** A search narrowed to sessions with these facets; an absent field does not narrow. */
export interface FacetFilter {
  readonly cwd?: string | undefined;
  readonly harness?: string | undefined;
}

/** A session's facets as an index stores them: `null` for none. */
export interface IndexedFacets {
  readonly cwd: string | null;
  readonly harness: string | null;
}

const NO_FACETS: IndexedFacets = { cwd: null, harness: null };

/**
 * The facets an index stores for a header: none without an extractor, for a throwing extractor,
 * or for a field that is not a string.
 */
export function indexedFacets(extract: FacetExtractor | undefined, header: SessionHeader): IndexedFacets {
  if (extract === undefined) return NO_FACETS;
  let facets: SessionFacets;
  try {
    facets = extract(header);
  } catch {
    // The extractor's contract is "never throws"; one that does on an odd header must not stop
    // indexing the corpus, so the session is filed under no facet (a filter never finds it).
    return NO_FACETS;
  }
  return {
    cwd: typeof facets.cwd === 'string' ? facets.cwd : null,
    harness: typeof facets.harness === 'string' ? facets.harness : null,
  };
}

/** The filter's fields that narrow, or `undefined` for an unfiltered search. */
export function activeFilter(filter: FacetFilter): IndexedFacets | undefined {
  const cwd = filter.cwd ?? null;
  const harness = filter.harness ?? null;
  return cwd === null && harness === null ? undefined : { cwd, harness };
}

/**
 * The filter as a result snapshot records it (`null`: unfiltered), so a cursor continues only the
 * search it came from: a filtered search's cursor given to an unfiltered one (or another filter)
 * is refused as a cursor of another query, never continued with the wrong sessions.
 */
export function filterKey(filter: IndexedFacets | undefined): string | null {
  return filter === undefined ? null : JSON.stringify([filter.cwd, filter.harness]);
}
