import { defined } from '@strand/session';
import type Database from 'better-sqlite3';
import type { SessionEvent, SessionId } from '@strand/session';
import type { LabelExtractor, TextExtractor } from './default-extractor.js';
import { indexedFacets, type FacetExtractor } from './facets.js';
import { SearchIndexError } from './errors.js';
import type { IndexedIncarnation, SearchIndexStore } from './index-store.js';
import { SessionRows, type SessionRow } from './session-rows.js';
import { MAX_INDEXED_SEQ, TextRows } from './text-rows.js';
import {
  afterBegin,
  indexedLabel,
  indexedText,
  planAppend,
  planBegin,
  type AppendOutcome,
  type BeginMode,
  type Provenance,
} from './write-rules.js';

export { MAX_INDEXED_CHARS, type AppendOutcome, type BeginMode, type Provenance } from './write-rules.js';

/**
 * The only writer of the SQLite index tables. Every method is one transaction, so the bookkeeping
 * row and the FTS rows of a session always agree (the rules: write-rules.ts). Synchronous: it
 * satisfies `SearchIndexStore` with plain values.
 */
export class IndexWriter implements SearchIndexStore {
  readonly #extract: TextExtractor;
  readonly #label: LabelExtractor | undefined;
  readonly #facets: FacetExtractor | undefined;
  readonly sessions: SessionRows;
  readonly #text: TextRows;
  readonly #begin: (
    sessionId: SessionId,
    incarnation: string | null,
    mode: BeginMode,
    source: IndexedIncarnation,
  ) => SessionRow;
  readonly #append: (
    sessionId: SessionId,
    incarnation: string | null,
    events: readonly SessionEvent[],
    provenance: Provenance,
    revision: string | undefined,
    originKnown: ((session: string) => boolean) | undefined,
  ) => AppendOutcome;
  readonly #drop: (sessionId: SessionId, sid: number | undefined) => boolean;

  constructor(
    db: Database.Database,
    extractor: TextExtractor,
    labeler?: LabelExtractor,
    facets?: FacetExtractor,
  ) {
    this.#extract = extractor;
    this.#label = labeler;
    this.#facets = facets;
    this.sessions = new SessionRows(db);
    this.#text = new TextRows(db);
    this.#begin = db.transaction(
      (sessionId: SessionId, incarnation: string | null, mode: BeginMode, source: IndexedIncarnation) =>
        this.#beginNow(sessionId, incarnation, mode, source),
    );
    this.#append = db.transaction(
      (
        sessionId: SessionId,
        incarnation: string | null,
        events: readonly SessionEvent[],
        provenance: Provenance,
        revision: string | undefined,
        originKnown: ((session: string) => boolean) | undefined,
      ) => this.#appendNow(sessionId, incarnation, events, provenance, revision, originKnown),
    );
    this.#drop = db.transaction((sessionId: SessionId, sid: number | undefined) => {
      const row = this.sessions.get(sessionId);
      if (row === undefined || (sid !== undefined && row.sid !== sid)) return false;
      this.#text.deleteFrom(row.sid, 0);
      this.sessions.delete(row.sid);
      return true;
    });
  }

  sessionRows(): SessionRow[] {
    return guard(() => this.sessions.all());
  }

  /** Creates or re-binds the session's bookkeeping before indexing; returns the row as it now is. */
  begin(
    sessionId: SessionId,
    incarnation: string | null,
    mode: BeginMode,
    source: IndexedIncarnation,
  ): SessionRow {
    return guard(() => this.#begin(sessionId, incarnation, mode, source), sessionId);
  }

  /** Indexes the events with `seq >= cut`, in one transaction, stopping at a gap (`planAppend`). */
  append(
    sessionId: SessionId,
    incarnation: string | null,
    events: readonly SessionEvent[],
    provenance: Provenance,
    revision?: string,
    originKnown?: (session: string) => boolean,
  ): AppendOutcome {
    return guard(
      () => this.#append(sessionId, incarnation, events, provenance, revision, originKnown),
      sessionId,
    );
  }

  /** Drops the session's rows and bookkeeping (only under key `sid`, if given); returns whether it did. */
  drop(sessionId: SessionId, sid?: number): boolean {
    return guard(() => this.#drop(sessionId, sid), sessionId);
  }

  #beginNow(
    sessionId: SessionId,
    incarnation: string | null,
    mode: BeginMode,
    source: IndexedIncarnation,
  ): SessionRow {
    const row = this.sessions.get(sessionId);
    const facets = indexedFacets(this.#facets, source.header);
    if (row === undefined)
      return this.sessions.insert(sessionId, incarnation, source.inheritedEventCount, facets);
    const step = planBegin(row, incarnation, mode, source.inheritedEventCount);
    if (step.kind === 'reset') {
      this.#text.deleteFrom(row.sid, 0);
      this.sessions.reset(row.sid, incarnation, step.ownFrom, facets);
    } else if (step.kind === 'truncate') {
      this.#text.deleteFrom(row.sid, step.from);
      this.sessions.setProgress(row.sid, step.from, row.durableCut);
    }
    return afterBegin(row, step);
  }

  #appendNow(
    sessionId: SessionId,
    incarnation: string | null,
    events: readonly SessionEvent[],
    provenance: Provenance,
    revision: string | undefined,
    originKnown: (session: string) => boolean = (session) =>
      this.sessions.get(session as SessionId) !== undefined,
  ): AppendOutcome {
    const row = this.sessions.get(sessionId);
    if (row === undefined || row.incarnation !== incarnation) return { events: 0, rows: 0, stale: true };
    const plan = planAppend(
      row,
      events,
      provenance,
      revision,
      (event) => indexedText(this.#extract, event),
      MAX_INDEXED_SEQ,
      (event) => indexedLabel(this.#label, event),
      originKnown,
    );
    if (plan.ownFrom !== undefined) {
      this.#text.deleteTextBelow(row.sid, plan.ownFrom);
      this.sessions.setOwnFrom(row.sid, plan.ownFrom);
    }
    for (const { seq, text } of plan.rows) this.#text.insert(row.sid, seq, text);
    for (const { seq, text } of plan.labels) this.#text.insertLabel(row.sid, seq, text);
    if (plan.progressed) this.sessions.setProgress(row.sid, plan.cut, plan.durableCut);
    if (plan.revision !== undefined) this.sessions.setRevision(row.sid, plan.revision);
    return { events: plan.events, rows: plan.rows.length, stale: false };
  }
}

/** SQLite failures become the index's own code; the index's own errors pass through. */
export function guard<T>(fn: () => T, sessionId?: string): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof SearchIndexError) throw error;
    throw new SearchIndexError('SEARCH_INDEX_FAILED', `search index operation failed: ${String(error)}`, {
      cause: error,
      ...defined({ sessionId }),
    });
  }
}
