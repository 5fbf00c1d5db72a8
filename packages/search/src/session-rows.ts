import type Database from 'better-sqlite3';
import type { SessionId } from '@strand/session';
import {
  FACT_COLUMNS,
  factsOfColumns,
  factValues,
  type FactColumns,
  type FactValues,
  type IndexedSessionFacts,
  type FiledFacts,
} from './facets.js';

/** Bookkeeping of one indexed session (`search_sessions`). */
export interface SessionRow {
  /** Small integer key; the high half of the session's FTS rowids. Never reused. */
  readonly sid: number;
  readonly sessionId: SessionId;
  /** The persistence incarnation indexed; `null` for a live session with no persisted incarnation. */
  readonly incarnation: string | null;
  /** The persisted revision last read into the index; `null` when none was. */
  readonly revision: string | null;
  /** The next seq to index: every event below it has been offered to the extractor. */
  readonly cut: number;
  /** Events below it were indexed from persistence; those in [durableCut, cut) from a live session's memory. */
  readonly durableCut: number;
  /**
   * The first seq the session wrote itself: a fork's log copies its parent's events below it (its
   * inherited prefix), and their text belongs to the session that first wrote them, so only events
   * at or after it get text rows (write-rules.ts). 0 for a session that is not a fork. Fixed per
   * incarnation, like the facets.
   */
  readonly ownFrom: number;
}

interface RawRow {
  readonly sid: number;
  readonly session_id: string;
  readonly incarnation: string | null;
  readonly revision: string | null;
  readonly cut: number;
  readonly durable_cut: number;
  readonly own_from: number;
}

const toRow = (raw: RawRow): SessionRow => ({
  sid: raw.sid,
  sessionId: raw.session_id as SessionId,
  incarnation: raw.incarnation,
  revision: raw.revision,
  cut: raw.cut,
  durableCut: raw.durable_cut,
  ownFrom: raw.own_from,
});

interface DescribedRaw extends FactColumns {
  readonly session_id: string;
}

/** Prepared statements over `search_sessions`. Callers own the transactions. */
export class SessionRows {
  readonly #get: Database.Statement<[string], RawRow>;
  readonly #all: Database.Statement<[], RawRow>;
  readonly #insert: Database.Statement<[string, string | null, number, ...FactValues], RawRow>;
  readonly #progress: Database.Statement<[number, number, number]>;
  readonly #revision: Database.Statement<[string | null, number]>;
  readonly #ownFrom: Database.Statement<[number, number]>;
  readonly #reset: Database.Statement<[string | null, number, ...FactValues, number]>;
  readonly #delete: Database.Statement<[number]>;
  readonly #described: Database.Statement<[number], DescribedRaw>;

  constructor(db: Database.Database) {
    const columns = 'sid, session_id, incarnation, revision, cut, durable_cut, own_from';
    this.#get = db.prepare(`SELECT ${columns} FROM search_sessions WHERE session_id = ?`);
    this.#all = db.prepare(`SELECT ${columns} FROM search_sessions ORDER BY sid`);
    this.#insert = db.prepare(
      `INSERT INTO search_sessions (session_id, incarnation, revision, cut, durable_cut, own_from, ${FACT_COLUMNS}) VALUES (?, ?, NULL, 0, 0, ?, ?, ?, ?, ?, ?, ?) RETURNING ${columns}`,
    );
    this.#progress = db.prepare('UPDATE search_sessions SET cut = ?, durable_cut = ? WHERE sid = ?');
    this.#revision = db.prepare('UPDATE search_sessions SET revision = ? WHERE sid = ?');
    this.#ownFrom = db.prepare('UPDATE search_sessions SET own_from = ? WHERE sid = ?');
    this.#reset = db.prepare(
      'UPDATE search_sessions SET incarnation = ?, revision = NULL, cut = 0, durable_cut = 0, own_from = ?, cwd = ?, project_name = ?, harness = ?, parent_session = ?, origin = ?, forked_from = ? WHERE sid = ?',
    );
    this.#delete = db.prepare('DELETE FROM search_sessions WHERE sid = ?');
    this.#described = db.prepare(`SELECT session_id, ${FACT_COLUMNS} FROM search_sessions WHERE sid = ?`);
  }

  get(sessionId: SessionId): SessionRow | undefined {
    const raw = this.#get.get(sessionId);
    return raw === undefined ? undefined : toRow(raw);
  }

  all(): SessionRow[] {
    return this.#all.all().map(toRow);
  }

  /** A new row for the incarnation (its own events from `ownFrom`), filed under its header's facets. */
  insert(
    sessionId: SessionId,
    incarnation: string | null,
    ownFrom: number,
    facts: IndexedSessionFacts,
  ): SessionRow {
    return toRow(this.#insert.get(sessionId, incarnation, ownFrom, ...factValues(facts))!);
  }

  setProgress(sid: number, cut: number, durableCut: number): void {
    this.#progress.run(cut, durableCut, sid);
  }

  setRevision(sid: number, revision: string | null): void {
    this.#revision.run(revision, sid);
  }

  /** A continued export's first own seq, learned from its log (`continuedOwnFrom`). */
  setOwnFrom(sid: number, ownFrom: number): void {
    this.#ownFrom.run(ownFrom, sid);
  }

  /**
   * Forgets what was indexed (rows must be deleted by the caller) and binds another incarnation,
   * with its own first seq and the facets of its header: a replaced session is filed only under
   * its new facets.
   */
  reset(sid: number, incarnation: string | null, ownFrom: number, facts: IndexedSessionFacts): void {
    this.#reset.run(incarnation, ownFrom, ...factValues(facts), sid);
  }

  delete(sid: number): void {
    this.#delete.run(sid);
  }

  /** The session's id and the facts it is filed under, to describe a result; undefined once dropped. */
  described(sid: number): { sessionId: SessionId; facts: FiledFacts } | undefined {
    const raw = this.#described.get(sid);
    if (raw === undefined) return undefined;
    return { sessionId: raw.session_id as SessionId, facts: factsOfColumns(raw) };
  }
}
