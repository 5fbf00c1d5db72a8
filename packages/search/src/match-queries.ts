import type Database from 'better-sqlite3';
import { facetConditions, type IndexedFacets } from './facets.js';
import type { MatchRow } from './ranked-window.js';
import { HIGHLIGHT_END, HIGHLIGHT_START, SNIPPET_ELLIPSIS } from './snippet.js';

export type { MatchRow } from './ranked-window.js';

/** Tokens FTS5's `snippet()` may return (its maximum is 64); the result is then bounded in characters. */
const SNIPPET_TOKENS = 24;

/**
 * The sessions a facet filter keeps, as a condition on a packed rowid: the `IN` subquery is not
 * correlated, so SQLite evaluates it once per statement (over the facet indexes) and probes it per
 * matching row. Only the filter's narrowing fields appear, so each uses its index.
 */
function facetCondition(rowid: string, filter: IndexedFacets): string {
  const where = facetConditions(filter).map(({ column }) => `${column} = ?`);
  return `(${rowid} >> 32) IN (SELECT sid FROM search_sessions WHERE ${where.join(' AND ')})`;
}

/** The filter's values in the order `facetCondition` binds them. */
function facetValues(filter: IndexedFacets): string[] {
  return facetConditions(filter).map(({ value }) => value);
}

/**
 * A session's current label row (its largest rowid), and only if the session set it itself: a
 * fork shows the title it inherited, but a match on it is its parent's (write-rules.ts `isOwnSeq`),
 * so the inherited label's event must be at or after the row's `own_from`.
 */
const CURRENT_OWN_LABEL = `search_labels.rowid = (SELECT max(m.rowid) FROM search_labels m
           WHERE m.rowid >= ((search_labels.rowid >> 32) << 32) AND m.rowid < (((search_labels.rowid >> 32) + 1) << 32))
           AND (search_labels.rowid & 4294967295) >= (SELECT s.own_from FROM search_sessions s WHERE s.sid = search_labels.rowid >> 32)`;

/** The label query, optionally narrowed by a facet condition (same order and limit either way). */
const labelsSql = (narrowing: string): string =>
  `SELECT rowid >> 32, rowid & 4294967295, bm25(search_labels) FROM search_labels
         WHERE search_labels MATCH ? AND ${CURRENT_OWN_LABEL}${narrowing}
         ORDER BY bm25(search_labels), rowid DESC LIMIT ?`;

type FilteredKind = 'firstWindow' | 'window' | 'labels';

/** Read-side statements over the FTS table. */
export class MatchQueries {
  readonly #db: Database.Database;
  /** Filtered variants, prepared on first use: one per kind and set of narrowing fields. */
  readonly #filtered = new Map<string, Database.Statement<unknown[], MatchRow>>();
  readonly #firstWindow: Database.Statement<[string, number], MatchRow>;
  readonly #window: Database.Statement<[string, number, number], MatchRow>;
  readonly #sessionHits: Database.Statement<[string, number, number, number], MatchRow>;
  readonly #firstSessionHits: Database.Statement<[string, number, number, number], MatchRow>;
  readonly #snippet: Database.Statement<[string, number, number], string>;
  readonly #text: Database.Statement<[number, number], string>;
  readonly #labels: Database.Statement<[string, number], MatchRow>;
  readonly #currentLabel: Database.Statement<[string, number, number], string>;
  readonly #labelOf: Database.Statement<[number, number], string>;

  constructor(db: Database.Database) {
    this.#db = db;
    const columns = 'rowid >> 32, rowid & 4294967295, bm25(search_text)';
    // Newest rows first (descending rowid), so a window is the next `size` matches below a session
    // boundary; FTS5 walks its doclists backwards and stops at LIMIT.
    this.#firstWindow = db
      .prepare<
        [string, number],
        MatchRow
      >(`SELECT ${columns} FROM search_text WHERE search_text MATCH ? ORDER BY rowid DESC LIMIT ?`)
      .raw();
    this.#window = db
      .prepare<
        [string, number, number],
        MatchRow
      >(`SELECT ${columns} FROM search_text WHERE search_text MATCH ? AND rowid < (? << 32) ORDER BY rowid DESC LIMIT ?`)
      .raw();
    this.#sessionHits = db
      .prepare<
        [string, number, number, number],
        MatchRow
      >(`SELECT ${columns} FROM search_text WHERE search_text MATCH ? AND rowid >= (? << 32) AND rowid < ((? + 1) << 32) ORDER BY bm25(search_text) LIMIT ?`)
      .raw();
    // No bm25 here on purpose: bm25 weighs each term by how many events hold it, which FTS5 counts
    // over the term's whole doclist on every execution — ~30 ms for a word in most of 1M events,
    // where the same rows in log order take ~0.2 ms.
    this.#firstSessionHits = db
      .prepare<
        [string, number, number, number],
        MatchRow
      >(`SELECT rowid >> 32, rowid & 4294967295, 0 FROM search_text WHERE search_text MATCH ? AND rowid >= (? << 32) AND rowid < ((? + 1) << 32) ORDER BY rowid LIMIT ?`)
      .raw();
    this.#snippet = db
      .prepare<
        [string, number, number],
        string
      >(`SELECT snippet(search_text, 0, '${HIGHLIGHT_START}', '${HIGHLIGHT_END}', '${SNIPPET_ELLIPSIS}', ${SNIPPET_TOKENS}) FROM search_text WHERE search_text MATCH ? AND rowid = ((? << 32) | ?)`)
      .pluck();
    this.#text = db
      .prepare<[number, number], string>('SELECT text FROM search_text WHERE rowid = ((? << 32) | ?)')
      .pluck();
    // Only a session's current label counts (its label row with the largest rowid): a renamed
    // session is not found by its old title. Best first, newer sessions first on ties.
    this.#labels = db.prepare<[string, number], MatchRow>(labelsSql('')).raw();
    this.#currentLabel = db
      .prepare<
        [string, number, number],
        string
      >(`SELECT text FROM search_labels WHERE search_labels MATCH ? AND rowid = ((? << 32) | ?) AND ${CURRENT_OWN_LABEL}`)
      .pluck();
    this.#labelOf = db
      .prepare<
        [number, number],
        string
      >('SELECT text FROM search_labels WHERE rowid >= (? << 32) AND rowid < ((? + 1) << 32) ORDER BY rowid DESC LIMIT 1')
      .pluck();
  }

  /** The session's current label: `null` when it has none or its last label event cleared it. */
  labelOf(sid: number): string | null {
    const text = this.#labelOf.get(sid, sid);
    return text === undefined || text === '' ? null : text;
  }

  /**
   * Sessions whose current label matches, best first: at most `limit` rows `[sid, label seq, bm25]`;
   * with a filter, only sessions filed under its facets.
   */
  labels(expression: string, limit: number, filter?: IndexedFacets): MatchRow[] {
    if (filter === undefined) return this.#labels.all(expression, limit);
    return this.#statement('labels', filter).all(expression, ...facetValues(filter), limit);
  }

  /**
   * The label event `seq` set, if it is still the session's label, its own (not inherited) and
   * still matches; else undefined.
   */
  currentLabel(expression: string, sid: number, seq: number): string | undefined {
    return this.#currentLabel.get(expression, sid, seq);
  }

  /**
   * The next `size` matching rows of sessions with `sid < upperSid` (all sessions for `null`),
   * newest first; with a filter, only rows of sessions filed under its facets, so a window holds
   * `size` rows that pass it.
   */
  window(expression: string, upperSid: number | null, size: number, filter?: IndexedFacets): MatchRow[] {
    if (filter === undefined)
      return upperSid === null
        ? this.#firstWindow.all(expression, size)
        : this.#window.all(expression, upperSid, size);
    return upperSid === null
      ? this.#statement('firstWindow', filter).all(expression, ...facetValues(filter), size)
      : this.#statement('window', filter).all(expression, upperSid, ...facetValues(filter), size);
  }

  #statement(kind: FilteredKind, filter: IndexedFacets): Database.Statement<unknown[], MatchRow> {
    const key = `${kind}:${facetConditions(filter)
      .map(({ column }) => column)
      .join(',')}`;
    let statement = this.#filtered.get(key);
    if (statement === undefined) {
      statement = this.#db.prepare<unknown[], MatchRow>(filteredSql(kind, filter)).raw();
      this.#filtered.set(key, statement);
    }
    return statement;
  }

  /** The session's best `limit` matching rows (a fallback when a snapshot's hits no longer match). */
  sessionHits(expression: string, sid: number, limit: number): MatchRow[] {
    return this.#sessionHits.all(expression, sid, sid, limit);
  }

  /** The session's first `limit` matching rows in log order (cost 0: not ranked). */
  firstSessionHits(expression: string, sid: number, limit: number): MatchRow[] {
    return this.#firstSessionHits.all(expression, sid, sid, limit);
  }

  /** The indexed text of one event, or undefined when it has no row. */
  text(sid: number, seq: number): string | undefined {
    return this.#text.get(sid, seq);
  }

  /** FTS5's snippet of one event, or undefined when it no longer exists or no longer matches. */
  snippet(expression: string, sid: number, seq: number): string | undefined {
    return this.#snippet.get(expression, sid, seq);
  }
}

/** The filtered form of the window and label queries above (same order, same limits). */
function filteredSql(kind: FilteredKind, filter: IndexedFacets): string {
  const columns = 'rowid >> 32, rowid & 4294967295, bm25(search_text)';
  switch (kind) {
    case 'firstWindow':
      return `SELECT ${columns} FROM search_text WHERE search_text MATCH ? AND ${facetCondition('rowid', filter)} ORDER BY rowid DESC LIMIT ?`;
    case 'window':
      return `SELECT ${columns} FROM search_text WHERE search_text MATCH ? AND rowid < (? << 32) AND ${facetCondition('rowid', filter)} ORDER BY rowid DESC LIMIT ?`;
    case 'labels':
      return labelsSql(`\n           AND ${facetCondition('search_labels.rowid', filter)}`);
    default: {
      const unknown: never = kind;
      throw new Error(`unknown filtered query ${String(unknown)}`);
    }
  }
}
