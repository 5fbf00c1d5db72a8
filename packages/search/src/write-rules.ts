import type { SessionEvent } from '@strand/session';
import type { LabelExtractor, TextExtractor } from './default-extractor.js';
import { SearchIndexError } from './errors.js';
import type { SessionRow } from './session-rows.js';
import { sanitizeIndexedText } from './snippet.js';

/** Longest text indexed per event (UTF-16 units); the rest of a huge tool output is not searchable. */
export const MAX_INDEXED_CHARS = 256 * 1024;

/** Where events being indexed come from: the durable log, or a live session's memory. */
export type Provenance = 'disk' | 'memory';

/**
 * How `begin` treats what is already indexed for the session. The mode is decided from an older
 * view of the row; `planBegin` re-decides against the row as it is now, so a mode stays idempotent
 * when the row changed since (a live append here, another host's sync).
 */
export type BeginMode =
  /** Keep the rows (continue at `cut`); a different incarnation (or none indexed) still resets. */
  | { readonly kind: 'keep' }
  /** Drop every row: the log no longer extends what was indexed. */
  | { readonly kind: 'reset' }
  /** Drop the rows indexed from memory (`seq >= durableCut`): the durable log is about to replace them. */
  | { readonly kind: 'truncate' };

/** What a store must do to an existing bookkeeping row in `begin`. */
export type BeginStep =
  | { readonly kind: 'keep' }
  /** Delete every row of the session and bind `incarnation` (its own events from `ownFrom`) with cut 0. */
  | { readonly kind: 'reset'; readonly incarnation: string | null; readonly ownFrom: number }
  /** Delete the rows with `seq >= from` (the durable cut) and set `cut` to `from`. */
  | { readonly kind: 'truncate'; readonly from: number };

export interface AppendOutcome {
  /** Events consumed (offered to the extractor), including those that had no text. */
  readonly events: number;
  /** Index rows written. */
  readonly rows: number;
  /** The bookkeeping changed under the caller (another incarnation or cut): nothing was written. */
  readonly stale: boolean;
}

/** One event's indexed text. */
export interface IndexedText {
  readonly seq: number;
  readonly text: string;
}

/** What a store must write in `append`, all in one transaction with the row it was planned from. */
export interface AppendPlan {
  readonly rows: readonly IndexedText[];
  /**
   * Set when the events hold a `session/continued-from` whose origin is known (`continuedOwnFrom`):
   * the row's new first own seq. The store deletes the session's text rows below it (not its label
   * rows: it shows the title it had) and records it.
   */
  readonly ownFrom?: number;
  /** Label rows (`LabelExtractor`): the text an event set the label to, `''` when it cleared it. */
  readonly labels: readonly IndexedText[];
  /** Events consumed. */
  readonly events: number;
  readonly cut: number;
  readonly durableCut: number;
  /** Whether `cut` or `durableCut` differ from the row's. */
  readonly progressed: boolean;
  /** The revision to record, or `undefined` to keep the row's. */
  readonly revision: string | undefined;
}

/*
 * The write rules every engine applies under its own transaction, pure so that the SQLite and the
 * PostgreSQL index keep one meaning of the bookkeeping: `cut` is exactly one past the last event
 * offered to the extractor and a text row exists for every *own* event below `cut` that had text
 * (`isOwnSeq`: a fork's inherited prefix has none, its hits are its parent's); events below
 * `durableCut` came from persistence, those in [durableCut, cut) from a live session's memory.
 */

/**
 * Whether the session itself wrote the event at `seq`, rather than inheriting it as a fork: a fork's
 * log copies its parent's events `[0, inheritedEventCount)`, and a hit there belongs to the session
 * that first wrote it — the parent, or for a fork of a fork the ancestor whose own event it is (each
 * session indexes only its own events, so every event is found exactly once, there).
 */
export function isOwnSeq(row: Pick<SessionRow, 'ownFrom'>, seq: number): boolean {
  return seq >= row.ownFrom;
}

/**
 * A session that continues a Strand export (`session/continued-from` at seq N, written by an
 * importer right after the exported prefix): its events below N are the origin's log as it was
 * exported, so when the origin is known to the index (`originKnown`: in the corpus the sync
 * listed, or indexed) they are not its own — a hit there is the origin's, listed once, under it.
 * Returns the new first own seq, or undefined (no such event among those consumed, an origin not
 * known, or a first own seq already past it). Only the first such event counts.
 */
export function continuedOwnFrom(
  row: Pick<SessionRow, 'ownFrom'>,
  events: readonly SessionEvent[],
  cut: number,
  originKnown: (session: string) => boolean,
): number | undefined {
  for (const event of events) {
    if (event.seq >= cut) break;
    if (event.type !== 'session/continued-from') continue;
    const origin = (event.data as { session?: unknown } | null)?.session;
    if (typeof origin !== 'string' || event.seq <= row.ownFrom || !originKnown(origin)) return undefined;
    return event.seq;
  }
  return undefined;
}

/**
 * Decides what `begin` does to the session's existing bookkeeping row; `ownFrom` is the first own
 * seq of the incarnation being indexed (its inherited prefix length), bound with it on a reset.
 */
export function planBegin(
  row: SessionRow,
  incarnation: string | null,
  mode: BeginMode,
  ownFrom: number,
): BeginStep {
  if (mode.kind === 'reset' || row.incarnation !== incarnation)
    return { kind: 'reset', incarnation, ownFrom };
  if (mode.kind === 'truncate' && row.cut > row.durableCut) return { kind: 'truncate', from: row.durableCut };
  return { kind: 'keep' };
}

/** The bookkeeping row as it is after `step`. */
export function afterBegin(row: SessionRow, step: BeginStep): SessionRow {
  switch (step.kind) {
    case 'keep':
      return row;
    case 'reset':
      return {
        ...row,
        incarnation: step.incarnation,
        revision: null,
        cut: 0,
        durableCut: 0,
        ownFrom: step.ownFrom,
      };
    case 'truncate':
      return { ...row, cut: step.from };
    default: {
      const unknown: never = step;
      throw new Error(`unknown begin step ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Plans indexing the events with `seq >= cut` (earlier ones were indexed already and are skipped),
 * stopping at a gap (the next sync re-reads from `cut`). Only own events (`isOwnSeq`) get a text
 * row; every event may set the label (a fork shows the title it inherited; which label events a
 * search matches is the engine's query: only own ones, like text). Disk events extend the durable prefix only
 * if nothing from memory sits below them; a `revision` is recorded only when the whole indexed
 * prefix is durable (it then names exactly what was read). Throws
 * `SEARCH_INDEX_FAILED` for a seq beyond `maxSeq` (the engine's addressable range).
 */
export function planAppend(
  row: SessionRow,
  events: readonly SessionEvent[],
  provenance: Provenance,
  revision: string | undefined,
  textOf: (event: SessionEvent) => string | undefined,
  maxSeq: number = Number.MAX_SAFE_INTEGER,
  labelOf: (event: SessionEvent) => string | undefined = () => undefined,
  originKnown: (session: string) => boolean = () => false,
): AppendPlan {
  let cut = row.cut;
  const rows: IndexedText[] = [];
  const labels: IndexedText[] = [];
  let consumed = 0;
  let gap = false;
  for (const event of events) {
    if (event.seq < cut) continue;
    if (event.seq !== cut) {
      gap = true;
      break;
    }
    if (event.seq > maxSeq) {
      throw new SearchIndexError(
        'SEARCH_INDEX_FAILED',
        `session ${row.sessionId}: seq ${event.seq} exceeds the indexable range`,
        { sessionId: row.sessionId },
      );
    }
    const text = isOwnSeq(row, event.seq) ? textOf(event) : undefined;
    if (text !== undefined) rows.push({ seq: event.seq, text });
    const label = labelOf(event);
    if (label !== undefined) labels.push({ seq: event.seq, text: label });
    cut++;
    consumed++;
  }
  const durableCut = provenance === 'disk' && row.durableCut === row.cut ? cut : row.durableCut;
  // A continued export's exported prefix is its origin's: its hits are listed there, once.
  const continued = continuedOwnFrom(row, events, cut, originKnown);
  return {
    rows: continued === undefined ? rows : rows.filter((r) => r.seq >= continued),
    ...(continued === undefined ? {} : { ownFrom: continued }),
    labels,
    events: consumed,
    cut,
    durableCut,
    progressed: cut !== row.cut || durableCut !== row.durableCut,
    revision:
      revision !== undefined && provenance === 'disk' && durableCut === cut && !gap ? revision : undefined,
  };
}

/**
 * The text an index stores for an event: the extractor's choice, capped at `MAX_INDEXED_CHARS`
 * (never splitting a surrogate pair) and with the highlight markers replaced; `undefined` when the
 * event has no text.
 */
export function indexedText(extract: TextExtractor, event: SessionEvent): string | undefined {
  let text: string | undefined;
  try {
    text = extract(event);
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

/**
 * The label row an index stores for an event: `undefined` when the event does not touch the label,
 * `''` when it clears it (a row all the same: it is the session's latest label and matches
 * nothing), else the label capped and sanitized like indexed text. A throwing extractor counts as
 * "does not touch".
 */
export function indexedLabel(extract: LabelExtractor | undefined, event: SessionEvent): string | undefined {
  if (extract === undefined) return undefined;
  let label: string | null | undefined;
  try {
    label = extract(event);
  } catch {
    return undefined;
  }
  if (label === undefined) return undefined;
  if (typeof label !== 'string') return '';
  return sanitizeIndexedText(label.slice(0, MAX_LABEL_CHARS));
}

/** Longest label indexed (UTF-16 units); a label is a title, not a document. */
export const MAX_LABEL_CHARS = 1_000;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
