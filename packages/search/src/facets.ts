import { projectNameOf, type SessionHeader } from '@strand/session';

/**
 * What a session is filed under, besides its text: the project it ran in (`cwd`) and the harness it
 * came from. Read from the session's header, which is fixed per incarnation, so a session's facets
 * change only when it is replaced (another incarnation) — exactly when its rows are.
 */
export interface SessionFacets {
  readonly cwd?: string | undefined;
  readonly harness?: string | undefined;
  /**
   * Where the session came from, stored to describe a result (never filtered by), so a search
   * answer says it without reading the session's log: the session it was spawned by (a subagent's
   * parent), how (`origin`, e.g. `'subagent'`) and the session whose prefix it was forked from.
   */
  readonly parentSession?: string | undefined;
  readonly origin?: string | undefined;
  readonly forkedFrom?: string | undefined;
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
  /** The `cwd` facet's last folder name (`projectNameOf` of @strand/session): a project by name. */
  readonly projectName?: string | undefined;
  readonly harness?: string | undefined;
}

/**
 * A session's facets as an index stores them (`null` for none). `projectName` is not extracted: it
 * is derived from the stored `cwd` (`projectNameOf`), so it always agrees with it and with the
 * list index's `project_name`.
 */
export interface IndexedFacets {
  readonly cwd: string | null;
  readonly projectName: string | null;
  readonly harness: string | null;
}

/** Every fact an index stores for a session (its facets and its lineage): `null` for none. */
export interface IndexedSessionFacts extends IndexedFacets {
  readonly parentSession: string | null;
  readonly origin: string | null;
  readonly forkedFrom: string | null;
}

const NO_FACETS: IndexedSessionFacts = {
  cwd: null,
  projectName: null,
  harness: null,
  parentSession: null,
  origin: null,
  forkedFrom: null,
};

/**
 * The facets an index stores for a header: none without an extractor, for a throwing extractor,
 * or for a field that is not a string.
 */
export function indexedFacets(
  extract: FacetExtractor | undefined,
  header: SessionHeader,
): IndexedSessionFacts {
  if (extract === undefined) return NO_FACETS;
  let facets: SessionFacets;
  try {
    facets = extract(header);
  } catch {
    // The extractor's contract is "never throws"; one that does on an odd header must not stop
    // indexing the corpus, so the session is filed under no facet (a filter never finds it).
    return NO_FACETS;
  }
  const cwd = stringOrNull(facets.cwd);
  return {
    cwd,
    projectName: projectNameOf(cwd ?? undefined),
    harness: stringOrNull(facets.harness),
    parentSession: stringOrNull(facets.parentSession),
    origin: stringOrNull(facets.origin),
    forkedFrom: stringOrNull(facets.forkedFrom),
  };
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A session's stored facts as a result carries them: only the fields the session has. */
export type FiledFacts = { readonly [K in keyof SessionFacets]?: string };

// A result carries the extracted facts, not the derived `projectName` (its caller has the `cwd`).
function resultFacts(facts: Omit<IndexedSessionFacts, 'projectName'>): FiledFacts {
  const out: { -readonly [K in keyof SessionFacets]?: string } = {};
  for (const key of ['cwd', 'harness', 'parentSession', 'origin', 'forkedFrom'] as const) {
    const value = facts[key];
    if (value !== null) out[key] = value;
  }
  return out;
}

/** The filter's fields that narrow, or `undefined` for an unfiltered search. */
export function activeFilter(filter: FacetFilter): IndexedFacets | undefined {
  const cwd = filter.cwd ?? null;
  const projectName = filter.projectName ?? null;
  const harness = filter.harness ?? null;
  return cwd === null && projectName === null && harness === null ? undefined : { cwd, projectName, harness };
}

/** The `search_sessions` column of each narrowing field, the same in both engines. */
const FILTER_COLUMNS = { cwd: 'cwd', projectName: 'project_name', harness: 'harness' } as const;

/**
 * The filter's narrowing fields as `column = value` conditions, in a fixed order (each engine
 * binds the values in this order): only the fields that narrow, so each uses its own index.
 */
export function facetConditions(
  filter: IndexedFacets,
): { readonly column: string; readonly value: string }[] {
  const conditions: { column: string; value: string }[] = [];
  for (const field of ['cwd', 'projectName', 'harness'] as const) {
    const value = filter[field];
    if (value !== null) conditions.push({ column: FILTER_COLUMNS[field], value });
  }
  return conditions;
}

/**
 * The filter as a result snapshot records it (`null`: unfiltered), so a cursor continues only the
 * search it came from: a filtered search's cursor given to an unfiltered one (or another filter)
 * is refused as a cursor of another query, never continued with the wrong sessions.
 */
export function filterKey(filter: IndexedFacets | undefined): string | null {
  return filter === undefined ? null : JSON.stringify([filter.cwd, filter.harness, filter.projectName]);
}

/**
 * The `search_sessions` columns of a session's facts, the same in both engines, in `factValues`
 * order (a statement binds them in this order).
 */
export const FACT_COLUMNS = 'cwd, project_name, harness, parent_session, origin, forked_from';

export type FactValues = [
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
];

export const factValues = (f: IndexedSessionFacts): FactValues => [
  f.cwd,
  f.projectName,
  f.harness,
  f.parentSession,
  f.origin,
  f.forkedFrom,
];

/** A session's fact columns as a row reads them. */
export interface FactColumns {
  readonly cwd: string | null;
  readonly harness: string | null;
  readonly parent_session: string | null;
  readonly origin: string | null;
  readonly forked_from: string | null;
}

/** The facts a result carries, from the row's fact columns. */
export const factsOfColumns = (raw: FactColumns): FiledFacts =>
  resultFacts({
    cwd: raw.cwd,
    harness: raw.harness,
    parentSession: raw.parent_session,
    origin: raw.origin,
    forkedFrom: raw.forked_from,
  });
