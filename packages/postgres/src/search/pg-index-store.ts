import type pg from 'pg';
import {
  SearchIndexError,
  type FacetExtractor,
  type LabelExtractor,
  type TextExtractor,
} from '@strand/search';
import {
  afterBegin,
  FACT_COLUMNS,
  factValues,
  indexedFacets,
  indexedLabel,
  indexedText,
  planAppend,
  planBegin,
  type AppendOutcome,
  type BeginMode,
  type IndexedIncarnation,
  type IndexedText,
  type Provenance,
  type SearchIndexStore,
  type SessionRow,
} from '@strand/search/kit';
import type { SessionEvent, SessionId } from '@strand/session';
import type { SearchDatabase } from './search-database.js';
import { tsvectorSource } from './ts-text.js';

export const COLUMNS = 'sid, session_id, incarnation, revision, cut, durable_cut, own_from';

export interface RawRow {
  readonly sid: string;
  readonly session_id: string;
  readonly incarnation: string | null;
  readonly revision: string | null;
  readonly cut: string;
  readonly durable_cut: string;
  readonly own_from: string;
}

export const toRow = (raw: RawRow): SessionRow => ({
  sid: Number(raw.sid),
  sessionId: raw.session_id as SessionId,
  incarnation: raw.incarnation,
  revision: raw.revision,
  cut: Number(raw.cut),
  durableCut: Number(raw.durable_cut),
  ownFrom: Number(raw.own_from),
});

/** UTF-16 units of text (stored text and parser input together) sent in one INSERT. */
const INSERT_CHARS = 4_000_000;

const UPSERT_EVENTS = `
INSERT INTO search_events (sid, seq, text, tsv)
SELECT $1, r.seq, r.text, strand_search_tsv(r.source)
FROM unnest($2::bigint[], $3::text[], $4::text[]) AS r (seq, text, source)
ON CONFLICT (sid, seq) DO UPDATE SET text = EXCLUDED.text, tsv = EXCLUDED.tsv`;

const UPSERT_LABELS = `
INSERT INTO search_labels (sid, seq, text, tsv)
SELECT $1, r.seq, r.text, strand_search_tsv(r.source)
FROM unnest($2::bigint[], $3::text[], $4::text[]) AS r (seq, text, source)
ON CONFLICT (sid, seq) DO UPDATE SET text = EXCLUDED.text, tsv = EXCLUDED.tsv`;

/**
 * The PostgreSQL writer of the index: the engine-neutral write rules (write-rules.ts in
 * `@strand/search`) applied inside one transaction per call, against the bookkeeping row locked
 * `FOR UPDATE`. That lock is what makes several hosts syncing the same database safe: two batches
 * of one session are serialized, the second sees the first's `cut` and skips what is indexed
 * already; event rows are upserts keyed (sid, seq), so nothing is ever duplicated.
 */
export class PgIndexStore implements SearchIndexStore {
  readonly #db: SearchDatabase;
  readonly #extract: TextExtractor;
  readonly #label: LabelExtractor | undefined;
  readonly #facets: FacetExtractor | undefined;

  constructor(
    db: SearchDatabase,
    extractor: TextExtractor,
    labeler?: LabelExtractor,
    facets?: FacetExtractor,
  ) {
    this.#db = db;
    this.#extract = extractor;
    this.#label = labeler;
    this.#facets = facets;
  }

  async sessionRows(): Promise<SessionRow[]> {
    return (await this.#db.query<RawRow>(`SELECT ${COLUMNS} FROM search_sessions ORDER BY sid`)).map(toRow);
  }

  begin(
    sessionId: SessionId,
    incarnation: string | null,
    mode: BeginMode,
    source: IndexedIncarnation,
  ): Promise<SessionRow> {
    // A created or re-bound row is filed under the facets of this incarnation's header, and
    // indexes text from its first own seq (a fork's inherited prefix is its parent's).
    const facets = indexedFacets(this.#facets, source.header);
    const ownFrom = source.inheritedEventCount;
    return this.#db.transaction(async (client) => {
      // The row may be deleted (a drop, a rebuild) between seeing the conflict and locking it.
      for (let attempt = 0; attempt < 3; attempt++) {
        const inserted = await client.query<RawRow>(
          `INSERT INTO search_sessions (session_id, incarnation, revision, cut, durable_cut, own_from, ${FACT_COLUMNS})
           VALUES ($1, $2, NULL, 0, 0, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (session_id) DO NOTHING RETURNING ${COLUMNS}`,
          [sessionId, incarnation, ownFrom, ...factValues(facets)],
        );
        if (inserted.rows[0] !== undefined) return toRow(inserted.rows[0]);
        const row = await lockRow(client, sessionId);
        if (row === undefined) continue;
        const step = planBegin(row, incarnation, mode, ownFrom);
        if (step.kind === 'reset') {
          await deleteRows(client, row.sid, 0);
          await client.query(
            `UPDATE search_sessions SET incarnation = $2, revision = NULL, cut = 0, durable_cut = 0, own_from = $3,
             (${FACT_COLUMNS}) = ($4, $5, $6, $7, $8, $9) WHERE sid = $1`,
            [row.sid, step.incarnation, step.ownFrom, ...factValues(facets)],
          );
        } else if (step.kind === 'truncate') {
          await deleteRows(client, row.sid, step.from);
          await client.query('UPDATE search_sessions SET cut = $2 WHERE sid = $1', [row.sid, step.from]);
        }
        return afterBegin(row, step);
      }
      throw new SearchIndexError(
        'SEARCH_INDEX_FAILED',
        `session ${sessionId}: its search bookkeeping row kept vanishing under concurrent drops`,
        { sessionId },
      );
    }, sessionId);
  }

  append(
    sessionId: SessionId,
    incarnation: string | null,
    events: readonly SessionEvent[],
    provenance: Provenance,
    revision?: string,
    originKnown?: (session: string) => boolean,
  ): Promise<AppendOutcome> {
    return this.#db.transaction(async (client) => {
      const row = await lockRow(client, sessionId);
      if (row === undefined || row.incarnation !== incarnation) return { events: 0, rows: 0, stale: true };
      const known = originKnown ?? (await indexedOrigins(client, events));
      const plan = planAppend(
        row,
        events,
        provenance,
        revision,
        (event) => indexedText(this.#extract, event),
        Number.MAX_SAFE_INTEGER, // bigint seq: no narrower range than the session's own
        (event) => indexedLabel(this.#label, event),
        known,
      );
      if (plan.ownFrom !== undefined) {
        // A continued export's exported prefix is its origin's: its text rows go (labels stay).
        await client.query('DELETE FROM search_events WHERE sid = $1 AND seq < $2', [row.sid, plan.ownFrom]);
        await client.query('UPDATE search_sessions SET own_from = $2 WHERE sid = $1', [
          row.sid,
          plan.ownFrom,
        ]);
      }
      for (const [statement, rows] of [
        [UPSERT_EVENTS, plan.rows],
        [UPSERT_LABELS, plan.labels],
      ] as const) {
        for (const chunk of insertChunks(rows)) {
          await client.query(statement, [
            row.sid,
            chunk.map((r) => r.seq),
            chunk.map((r) => r.text),
            chunk.map((r) => tsvectorSource(r.text)),
          ]);
        }
      }
      if (plan.progressed || plan.revision !== undefined) {
        await client.query(
          'UPDATE search_sessions SET cut = $2, durable_cut = $3, revision = COALESCE($4, revision) WHERE sid = $1',
          [row.sid, plan.cut, plan.durableCut, plan.revision ?? null],
        );
      }
      return { events: plan.events, rows: plan.rows.length, stale: false };
    }, sessionId);
  }

  drop(sessionId: SessionId, sid?: number): Promise<boolean> {
    return this.#db.transaction(async (client) => {
      // Deleting the row first waits for a batch holding its lock; the events statement after it
      // then sees that batch's rows (text and labels), and no later batch can find the row to write under.
      const gone = await client.query<{ sid: string }>(
        'DELETE FROM search_sessions WHERE session_id = $1 AND ($2::bigint IS NULL OR sid = $2) RETURNING sid',
        [sessionId, sid ?? null],
      );
      const dropped = gone.rows[0];
      if (dropped === undefined) return false;
      await deleteRows(client, Number(dropped.sid), 0);
      return true;
    }, sessionId);
  }
}

async function lockRow(client: pg.ClientBase, sessionId: SessionId): Promise<SessionRow | undefined> {
  const { rows } = await client.query<RawRow>(
    `SELECT ${COLUMNS} FROM search_sessions WHERE session_id = $1 FOR UPDATE`,
    [sessionId],
  );
  return rows[0] === undefined ? undefined : toRow(rows[0]);
}

/**
 * Deletes the session's text and label rows with `seq >= fromSeq` (all of them for 0): a label
 * obeys the same cut as text, so a label set from memory that never became durable goes too.
 */
/**
 * The origins named by the batch's `session/continued-from` events that the index has a row for
 * (the default of `append`'s `originKnown`); one query, and only for a batch that names one.
 */
async function indexedOrigins(
  client: pg.ClientBase,
  events: readonly SessionEvent[],
): Promise<(session: string) => boolean> {
  const origins = events.flatMap((e) => {
    const origin = (e.data as { session?: unknown } | null)?.session;
    return e.type === 'session/continued-from' && typeof origin === 'string' ? [origin] : [];
  });
  if (origins.length === 0) return () => false;
  const { rows } = await client.query<{ session_id: string }>(
    'SELECT session_id FROM search_sessions WHERE session_id = ANY($1)',
    [origins],
  );
  const found = new Set(rows.map((r) => r.session_id));
  return (session) => found.has(session);
}

async function deleteRows(client: pg.ClientBase, sid: number, fromSeq: number): Promise<void> {
  await client.query('DELETE FROM search_events WHERE sid = $1 AND seq >= $2', [sid, fromSeq]);
  await client.query('DELETE FROM search_labels WHERE sid = $1 AND seq >= $2', [sid, fromSeq]);
}

/** Splits a batch's rows so one INSERT stays a few MB however large the tool outputs are. */
export function* insertChunks<R extends Pick<IndexedText, 'text'>>(rows: readonly R[]): Generator<R[]> {
  let chunk: R[] = [];
  let chars = 0;
  for (const row of rows) {
    if (chunk.length > 0 && chars + 2 * row.text.length > INSERT_CHARS) {
      yield chunk;
      chunk = [];
      chars = 0;
    }
    chunk.push(row);
    chars += 2 * row.text.length;
  }
  if (chunk.length > 0) yield chunk;
}
