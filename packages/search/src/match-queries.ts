import type Database from 'better-sqlite3';
import type { MatchRow } from './ranked-window.js';
import { HIGHLIGHT_END, HIGHLIGHT_START, SNIPPET_ELLIPSIS } from './snippet.js';

export type { MatchRow } from './ranked-window.js';

/** Tokens FTS5's `snippet()` may return (its maximum is 64); the result is then bounded in characters. */
const SNIPPET_TOKENS = 24;

/** Read-side statements over the FTS table. */
export class MatchQueries {
  readonly #firstWindow: Database.Statement<[string, number], MatchRow>;
  readonly #window: Database.Statement<[string, number, number], MatchRow>;
  readonly #sessionHits: Database.Statement<[string, number, number, number], MatchRow>;
  readonly #firstSessionHits: Database.Statement<[string, number, number, number], MatchRow>;
  readonly #snippet: Database.Statement<[string, number, number], string>;
  readonly #text: Database.Statement<[number, number], string>;
  readonly #labels: Database.Statement<[string, number], MatchRow>;
  readonly #currentLabel: Database.Statement<[string, number, number, number, number], string>;
  readonly #labelOf: Database.Statement<[number, number], string>;

  constructor(db: Database.Database) {
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
    this.#labels = db
      .prepare<[string, number], MatchRow>(
        `SELECT rowid >> 32, rowid & 4294967295, bm25(search_labels) FROM search_labels
         WHERE search_labels MATCH ? AND rowid = (SELECT max(m.rowid) FROM search_labels m
           WHERE m.rowid >= ((search_labels.rowid >> 32) << 32) AND m.rowid < (((search_labels.rowid >> 32) + 1) << 32))
         ORDER BY bm25(search_labels), rowid DESC LIMIT ?`,
      )
      .raw();
    this.#currentLabel = db
      .prepare<[string, number, number, number, number], string>(
        `SELECT text FROM search_labels WHERE search_labels MATCH ? AND rowid = ((? << 32) | ?)
         AND rowid = (SELECT max(m.rowid) FROM search_labels m WHERE m.rowid >= (? << 32) AND m.rowid < ((? + 1) << 32))`,
      )
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

  /** Sessions whose current label matches, best first: at most `limit` rows `[sid, label seq, bm25]`. */
  labels(expression: string, limit: number): MatchRow[] {
    return this.#labels.all(expression, limit);
  }

  /** The label event `seq` set, if it is still the session's label and still matches; else undefined. */
  currentLabel(expression: string, sid: number, seq: number): string | undefined {
    return this.#currentLabel.get(expression, sid, seq, sid, sid);
  }

  /** The next `size` matching rows of sessions with `sid < upperSid` (all sessions for `null`), newest first. */
  window(expression: string, upperSid: number | null, size: number): MatchRow[] {
    return upperSid === null
      ? this.#firstWindow.all(expression, size)
      : this.#window.all(expression, upperSid, size);
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
