import type pg from 'pg';
import {
  SearchIndexError,
  type FacetExtractor,
  type LabelExtractor,
  type TextExtractor,
} from '@strand/search';
import {
  afterBegin,
  factValues,
  indexedFacets,
  indexedLabel,
  indexedText,
  planAppend,
  planBegin,
  type AppendOutcome,
  type BeginMode,
  type FactValues,
  type IndexedIncarnation,
  type Provenance,
  type SearchIndexStore,
  type SessionRow,
} from '@strand/search/kit';
import type { SessionEvent, SessionId } from '@strand/session';
import { FACT_INDEXES, type LockedRows } from './pg-group-rows.js';
import { insertChunks } from './pg-index-store.js';
import { tsvectorSource } from './ts-text.js';

/** The rules a store applies (the index's extractors). */
export interface WriteRules {
  readonly extract: TextExtractor;
  readonly label: LabelExtractor | undefined;
  readonly facets: FacetExtractor | undefined;
}

interface GroupRow {
  row: SessionRow;
  /** Created by this transaction and not begun yet: the first `begin` returns it as it is. */
  fresh: boolean;
  /** Changed since it was locked: written back by `flush`. */
  dirty: boolean;
  /** Set when the row was re-bound (a reset): the facts it is filed under from now on. */
  refiled?: FactValues;
}

/** The session's pre-existing text rows to delete: `seq >= from` (labels too), `seq < below` (text only). */
interface Deletion {
  from?: number;
  below?: number;
}

type TextRows = Map<number, Map<number, string>>;

/**
 * The `SearchIndexStore` of one group transaction (`PostgresSearchIndex.indexLiveMany`): the
 * engine-neutral loop (`indexMemory`) runs against it session by session exactly as against
 * `PgIndexStore`, with the write rules applied to the rows locked by `lockGroupRows`, but nothing
 * is sent until `flush`, which writes the group's net effect set-based (one DELETE, one INSERT per
 * table and few MB of text, one UPDATE of the bookkeeping). Deletions only ever concern rows that
 * existed before the transaction (a pending row is dropped from memory instead), and pending rows
 * are written after them; so the net effect equals the sequence of per-session transactions.
 */
export class GroupStore implements SearchIndexStore {
  readonly #rules: WriteRules;
  readonly #rows = new Map<SessionId, GroupRow>();
  /** Sessions with a row when the group began, or begun by it (`append`'s default `originKnown`). */
  readonly #known: Set<string>;
  readonly #deletions = new Map<number, Deletion>();
  readonly #text: TextRows = new Map();
  readonly #labels: TextRows = new Map();

  constructor(rules: WriteRules, locked: LockedRows, knownOrigins: ReadonlySet<string>) {
    this.#rules = rules;
    for (const [id, row] of locked.rows)
      this.#rows.set(id, { row, fresh: locked.created.has(id), dirty: false });
    this.#known = new Set(knownOrigins);
    for (const id of locked.rows.keys()) if (!locked.created.has(id)) this.#known.add(id);
  }

  sessionRows(): readonly SessionRow[] {
    return [...this.#rows.values()].map((r) => r.row);
  }

  begin(
    sessionId: SessionId,
    incarnation: string | null,
    mode: BeginMode,
    source: IndexedIncarnation,
  ): SessionRow {
    const entry = this.#entry(sessionId);
    this.#known.add(sessionId);
    if (entry.fresh) {
      entry.fresh = false;
      return entry.row;
    }
    const step = planBegin(entry.row, incarnation, mode, source.inheritedEventCount);
    if (step.kind === 'reset') {
      this.#deleteFrom(entry.row.sid, 0);
      entry.refiled = factValues(indexedFacets(this.#rules.facets, source.header));
    } else if (step.kind === 'truncate') {
      this.#deleteFrom(entry.row.sid, step.from);
    }
    if (step.kind !== 'keep') entry.dirty = true;
    entry.row = afterBegin(entry.row, step);
    return entry.row;
  }

  append(
    sessionId: SessionId,
    incarnation: string | null,
    events: readonly SessionEvent[],
    provenance: Provenance,
    revision?: string,
    originKnown?: (session: string) => boolean,
  ): AppendOutcome {
    const entry = this.#rows.get(sessionId);
    if (entry === undefined || entry.row.incarnation !== incarnation)
      return { events: 0, rows: 0, stale: true };
    const plan = planAppend(
      entry.row,
      events,
      provenance,
      revision,
      (event) => indexedText(this.#rules.extract, event),
      Number.MAX_SAFE_INTEGER,
      (event) => indexedLabel(this.#rules.label, event),
      originKnown ?? ((session) => this.#known.has(session)),
    );
    const sid = entry.row.sid;
    if (plan.ownFrom !== undefined) {
      this.#deleteBelow(sid, plan.ownFrom);
      entry.row = { ...entry.row, ownFrom: plan.ownFrom };
      entry.dirty = true;
    }
    for (const r of plan.rows) rowsOf(this.#text, sid).set(r.seq, r.text);
    for (const r of plan.labels) rowsOf(this.#labels, sid).set(r.seq, r.text);
    if (plan.progressed || plan.revision !== undefined) {
      entry.row = {
        ...entry.row,
        cut: plan.cut,
        durableCut: plan.durableCut,
        revision: plan.revision ?? entry.row.revision,
      };
      entry.dirty = true;
    }
    return { events: plan.events, rows: plan.rows.length, stale: false };
  }

  drop(sessionId: SessionId): never {
    throw new SearchIndexError('SEARCH_INDEX_FAILED', `session ${sessionId}: a group write does not drop`, {
      sessionId,
    });
  }

  /** Writes the group's net effect; the caller's transaction commits it. */
  async flush(client: pg.ClientBase): Promise<void> {
    await this.#flushDeletions(client);
    await flushText(client, 'search_events', this.#text);
    await flushText(client, 'search_labels', this.#labels);
    await this.#flushRows(client);
  }

  #entry(sessionId: SessionId): GroupRow {
    const entry = this.#rows.get(sessionId);
    if (entry === undefined)
      throw new SearchIndexError('SEARCH_INDEX_FAILED', `session ${sessionId}: not locked by its group`, {
        sessionId,
      });
    return entry;
  }

  #deleteFrom(sid: number, from: number): void {
    for (const rows of [this.#text.get(sid), this.#labels.get(sid)])
      for (const seq of rows?.keys() ?? []) if (seq >= from) rows?.delete(seq);
    const deletion = this.#deletion(sid);
    deletion.from = Math.min(deletion.from ?? from, from);
  }

  #deleteBelow(sid: number, below: number): void {
    const rows = this.#text.get(sid);
    for (const seq of rows?.keys() ?? []) if (seq < below) rows?.delete(seq);
    const deletion = this.#deletion(sid);
    deletion.below = Math.max(deletion.below ?? below, below);
  }

  #deletion(sid: number): Deletion {
    let deletion = this.#deletions.get(sid);
    if (deletion === undefined) this.#deletions.set(sid, (deletion = {}));
    return deletion;
  }

  async #flushDeletions(client: pg.ClientBase): Promise<void> {
    if (this.#deletions.size === 0) return;
    const sids = [...this.#deletions.keys()];
    const from = sids.map((sid) => this.#deletions.get(sid)?.from ?? null);
    const below = sids.map((sid) => this.#deletions.get(sid)?.below ?? null);
    await client.query(
      `DELETE FROM search_events e USING unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS d (sid, from_seq, below)
       WHERE e.sid = d.sid AND (e.seq >= d.from_seq OR e.seq < d.below)`,
      [sids, from, below],
    );
    await client.query(
      `DELETE FROM search_labels l USING unnest($1::bigint[], $2::bigint[]) AS d (sid, from_seq)
       WHERE l.sid = d.sid AND l.seq >= d.from_seq`,
      [sids, from],
    );
  }

  async #flushRows(client: pg.ClientBase): Promise<void> {
    const dirty = [...this.#rows.values()].filter((r) => r.dirty);
    if (dirty.length === 0) return;
    const refile = (name: string, i: number) =>
      `${name} = CASE WHEN u.refile THEN u.f${i} ELSE s.${name} END`;
    await client.query(
      `UPDATE search_sessions s SET incarnation = u.incarnation, revision = u.revision, cut = u.cut,
         durable_cut = u.durable_cut, own_from = u.own_from,
         ${FACT_NAMES.map(refile).join(', ')}
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::boolean[],
         $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[])
         AS u (sid, incarnation, revision, cut, durable_cut, own_from, refile, f0, f1, f2, f3, f4, f5)
       WHERE s.sid = u.sid`,
      [
        dirty.map((r) => r.row.sid),
        dirty.map((r) => r.row.incarnation),
        dirty.map((r) => r.row.revision),
        dirty.map((r) => r.row.cut),
        dirty.map((r) => r.row.durableCut),
        dirty.map((r) => r.row.ownFrom),
        dirty.map((r) => r.refiled !== undefined),
        ...FACT_INDEXES.map((i) => dirty.map((r) => r.refiled?.[i] ?? null)),
      ],
    );
  }
}

/** `FACT_COLUMNS`, one name each. */
const FACT_NAMES = ['cwd', 'project_name', 'harness', 'parent_session', 'origin', 'forked_from'] as const;

function rowsOf(rows: TextRows, sid: number): Map<number, string> {
  let map = rows.get(sid);
  if (map === undefined) rows.set(sid, (map = new Map<number, string>()));
  return map;
}

/** The pending text rows of `table`, upserted in (sid, seq) order, a few MB per statement. */
async function flushText(client: pg.ClientBase, table: 'search_events' | 'search_labels', rows: TextRows) {
  const flat = [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([sid, bySeq]) =>
      [...bySeq.entries()].sort(([a], [b]) => a - b).map(([seq, text]) => ({ sid, seq, text })),
    );
  for (const chunk of insertChunks(flat)) {
    await client.query(
      `INSERT INTO ${table} (sid, seq, text, tsv)
       SELECT r.sid, r.seq, r.text, strand_search_tsv(r.source)
       FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[]) AS r (sid, seq, text, source)
       ON CONFLICT (sid, seq) DO UPDATE SET text = EXCLUDED.text, tsv = EXCLUDED.tsv`,
      [
        chunk.map((r) => r.sid),
        chunk.map((r) => r.seq),
        chunk.map((r) => r.text),
        chunk.map((r) => tsvectorSource(r.text)),
      ],
    );
  }
}
