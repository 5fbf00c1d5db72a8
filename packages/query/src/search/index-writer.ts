import type Database from 'better-sqlite3';
import type { SessionEvent, SessionId } from '@strand/session';
import type { TextExtractor } from './default-extractor.js';
import { SearchIndexError } from './errors.js';
import { SessionRows, type SessionRow } from './session-rows.js';
import { sanitizeIndexedText } from './snippet.js';
import { MAX_INDEXED_SEQ, TextRows } from './text-rows.js';

/** Longest text indexed per event (UTF-16 units); the rest of a huge tool output is not searchable. */
export const MAX_INDEXED_CHARS = 256 * 1024;

/** Where events being indexed come from: the durable log, or a live session's memory. */
export type Provenance = 'disk' | 'memory';

/** How `begin` treats what is already indexed for the session. */
export type BeginMode =
  /** Keep the rows (continue at `cut`); a different incarnation still resets. */
  | { readonly kind: 'keep' }
  /** Drop every row: another incarnation, or a log that no longer extends what was indexed. */
  | { readonly kind: 'reset' }
  /** Drop the rows with `seq >= from` (indexed from memory, about to be replaced by the durable log). */
  | { readonly kind: 'truncate'; readonly from: number };

export interface AppendOutcome {
  /** Events consumed (offered to the extractor), including those that had no text. */
  readonly events: number;
  /** FTS rows written. */
  readonly rows: number;
  /** The bookkeeping changed under the caller (another incarnation or cut): nothing was written. */
  readonly stale: boolean;
}

/**
 * The only writer of the index tables. Every method is one transaction, so the bookkeeping row
 * and the FTS rows of a session always agree: `cut` is exactly one past the last event offered to
 * the extractor, and a row exists for every event below `cut` that had text.
 */
export class IndexWriter {
  readonly #extract: TextExtractor;
  readonly sessions: SessionRows;
  readonly #text: TextRows;
  readonly #begin: (sessionId: SessionId, incarnation: string | null, mode: BeginMode) => SessionRow;
  readonly #append: (
    sessionId: SessionId,
    incarnation: string | null,
    events: readonly SessionEvent[],
    provenance: Provenance,
    revision: string | undefined,
  ) => AppendOutcome;
  readonly #drop: (sessionId: SessionId) => boolean;

  constructor(db: Database.Database, extractor: TextExtractor) {
    this.#extract = extractor;
    this.sessions = new SessionRows(db);
    this.#text = new TextRows(db);
    this.#begin = db.transaction((sessionId: SessionId, incarnation: string | null, mode: BeginMode) =>
      this.#beginNow(sessionId, incarnation, mode),
    );
    this.#append = db.transaction(
      (
        sessionId: SessionId,
        incarnation: string | null,
        events: readonly SessionEvent[],
        provenance: Provenance,
        revision: string | undefined,
      ) => this.#appendNow(sessionId, incarnation, events, provenance, revision),
    );
    this.#drop = db.transaction((sessionId: SessionId) => {
      const row = this.sessions.get(sessionId);
      if (row === undefined) return false;
      this.#text.deleteFrom(row.sid, 0);
      this.sessions.delete(row.sid);
      return true;
    });
  }

  /** Creates or re-binds the session's bookkeeping before indexing; returns the row as it now is. */
  begin(sessionId: SessionId, incarnation: string | null, mode: BeginMode): SessionRow {
    return guard(() => this.#begin(sessionId, incarnation, mode), sessionId);
  }

  /**
   * Indexes the events with `seq >= cut` (earlier ones were indexed already and are skipped), in one
   * transaction, stopping at a gap. Disk events extend the durable prefix; a `revision` is recorded
   * only when the whole indexed prefix is durable (it names exactly what was read).
   */
  append(
    sessionId: SessionId,
    incarnation: string | null,
    events: readonly SessionEvent[],
    provenance: Provenance,
    revision?: string,
  ): AppendOutcome {
    return guard(() => this.#append(sessionId, incarnation, events, provenance, revision), sessionId);
  }

  /** Drops the session's rows and bookkeeping; returns whether it was indexed. */
  drop(sessionId: SessionId): boolean {
    return guard(() => this.#drop(sessionId), sessionId);
  }

  #beginNow(sessionId: SessionId, incarnation: string | null, mode: BeginMode): SessionRow {
    const row = this.sessions.get(sessionId);
    if (row === undefined) return this.sessions.insert(sessionId, incarnation);
    if (mode.kind === 'reset' || row.incarnation !== incarnation) {
      this.#text.deleteFrom(row.sid, 0);
      this.sessions.reset(row.sid, incarnation);
      return { ...row, incarnation, revision: null, cut: 0, durableCut: 0 };
    }
    if (mode.kind === 'truncate' && row.cut > mode.from) {
      this.#text.deleteFrom(row.sid, mode.from);
      const durableCut = Math.min(row.durableCut, mode.from);
      this.sessions.setProgress(row.sid, mode.from, durableCut);
      return { ...row, cut: mode.from, durableCut };
    }
    return row;
  }

  #appendNow(
    sessionId: SessionId,
    incarnation: string | null,
    events: readonly SessionEvent[],
    provenance: Provenance,
    revision: string | undefined,
  ): AppendOutcome {
    const row = this.sessions.get(sessionId);
    if (row === undefined || row.incarnation !== incarnation) return { events: 0, rows: 0, stale: true };
    let cut = row.cut;
    let rows = 0;
    let consumed = 0;
    let gap = false;
    for (const event of events) {
      if (event.seq < cut) continue;
      if (event.seq !== cut) {
        gap = true; // the next sync re-reads from `cut`
        break;
      }
      if (event.seq > MAX_INDEXED_SEQ) {
        throw new SearchIndexError(
          'SESSION_QUERY_SEARCH_INDEX_FAILED',
          `session ${sessionId}: seq ${event.seq} exceeds the indexable range`,
          {
            sessionId,
          },
        );
      }
      const text = this.#textOf(event);
      if (text !== undefined) {
        this.#text.insert(row.sid, event.seq, text);
        rows++;
      }
      cut++;
      consumed++;
    }
    // Disk events extend the durable prefix only if nothing from memory sits below them.
    const durableCut = provenance === 'disk' && row.durableCut === row.cut ? cut : row.durableCut;
    if (cut !== row.cut || durableCut !== row.durableCut) this.sessions.setProgress(row.sid, cut, durableCut);
    if (revision !== undefined && provenance === 'disk' && durableCut === cut && !gap)
      this.sessions.setRevision(row.sid, revision);
    return { events: consumed, rows, stale: false };
  }

  #textOf(event: SessionEvent): string | undefined {
    let text: string | undefined;
    try {
      text = this.#extract(event);
    } catch {
      // The extractor's contract is "never throws"; one that does on an odd event must not stop
      // indexing the corpus, so the event counts as having no text.
      return undefined;
    }
    if (typeof text !== 'string' || text.trim().length === 0) return undefined;
    if (text.length > MAX_INDEXED_CHARS) {
      const end = isHighSurrogate(text.charCodeAt(MAX_INDEXED_CHARS - 1))
        ? MAX_INDEXED_CHARS - 1
        : MAX_INDEXED_CHARS;
      text = text.slice(0, end);
    }
    return sanitizeIndexedText(text);
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** SQLite failures become the index's own code; the index's own errors pass through. */
export function guard<T>(fn: () => T, sessionId?: string): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof SearchIndexError) throw error;
    throw new SearchIndexError(
      'SESSION_QUERY_SEARCH_INDEX_FAILED',
      `search index operation failed: ${String(error)}`,
      {
        cause: error,
        ...(sessionId === undefined ? {} : { sessionId }),
      },
    );
  }
}
