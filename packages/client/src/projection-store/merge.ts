import type { ProjectionBaseline, ProjectionHints } from '@strand/protocol';
import { jsonEqual } from '@strand/session';

/**
 * The pure merge core of the client projection store (packages/client/README.md).
 *
 * Invariants, for every input kind:
 * - One row per key, `{ value, seq }`; an input replaces a row only with a strictly higher seq.
 *   Equal or lower seq is ignored, so any interleaving of the same inputs converges.
 * - Hints are partial: a missing key is unknown and never clears a row.
 * - A baseline is complete for this host at `asOfSeq`: a key it lacks is a capability the host
 *   does not have, so it clears rows at or below `asOfSeq` — never a row a later frame set.
 * - `null` is a value (the unit computed nothing), distinct from a missing row (unknown).
 * The core never folds events and never interprets values.
 */
export interface ProjectionRow {
  readonly value: unknown;
  readonly seq: number;
}

export type ProjectionRows = ReadonlyMap<string, ProjectionRow>;

/** One key's whole value at `seq` (a `follow.projection` frame). */
export interface ProjectionFrameInput {
  readonly key: string;
  readonly value: unknown;
  readonly seq: number;
}

export type MergeResult =
  /** Some key's value appeared, changed or was cleared; `rows` is a new map. */
  | { readonly kind: 'changed'; readonly rows: ProjectionRows; readonly keys: readonly string[] }
  /** Rows moved to a higher seq with equal values; `rows` is a new map, nothing visible changed. */
  | { readonly kind: 'advanced'; readonly rows: ProjectionRows }
  /** Nothing in the input was newer than the rows. */
  | { readonly kind: 'ignored' }
  /** The input's seq is not an integer ≥ −1 (the `asOfSeq` of an empty log); nothing applied. */
  | { readonly kind: 'invalid'; readonly reason: string };

function invalidSeq(seq: unknown): string | null {
  return typeof seq === 'number' && Number.isInteger(seq) && seq >= -1
    ? null
    : `seq must be an integer >= -1, got ${String(seq)}`;
}

/** Collects per-key replacements, then reports them as one tagged result. */
class Draft {
  private next: Map<string, ProjectionRow> | null = null;
  private readonly changedKeys: string[] = [];

  constructor(private readonly rows: ProjectionRows) {}

  /** Replaces `key` when `seq` is strictly newer than its row (or it has none). */
  offer(key: string, value: unknown, seq: number): void {
    const row = this.rows.get(key);
    if (row !== undefined && row.seq >= seq) return;
    this.writable().set(key, { value, seq });
    if (row === undefined || !jsonEqual(row.value, value)) this.changedKeys.push(key);
  }

  clear(key: string): void {
    this.writable().delete(key);
    this.changedKeys.push(key);
  }

  result(): MergeResult {
    if (this.next === null) return { kind: 'ignored' };
    if (this.changedKeys.length === 0) return { kind: 'advanced', rows: this.next };
    return { kind: 'changed', rows: this.next, keys: this.changedKeys };
  }

  private writable(): Map<string, ProjectionRow> {
    this.next ??= new Map(this.rows);
    return this.next;
  }
}

/** Own keys whose value is defined (JSON cannot carry `undefined`; a JS caller's `undefined` is "missing"). */
function definedEntries(values: object): [string, unknown][] {
  return Object.entries(values).filter(([, value]) => value !== undefined);
}

export function mergeHints(rows: ProjectionRows, hints: ProjectionHints): MergeResult {
  const problem = invalidSeq(hints.asOfSeq);
  if (problem !== null) return { kind: 'invalid', reason: `hints: ${problem}` };
  const draft = new Draft(rows);
  for (const [key, value] of definedEntries(hints.values)) draft.offer(key, value, hints.asOfSeq);
  return draft.result();
}

export function mergeBaseline(rows: ProjectionRows, baseline: ProjectionBaseline): MergeResult {
  const problem = invalidSeq(baseline.asOfSeq);
  if (problem !== null) return { kind: 'invalid', reason: `baseline: ${problem}` };
  const draft = new Draft(rows);
  const present = new Set<string>();
  for (const [key, value] of definedEntries(baseline.values)) {
    present.add(key);
    draft.offer(key, value, baseline.asOfSeq);
  }
  for (const [key, row] of rows) {
    if (!present.has(key) && row.seq <= baseline.asOfSeq) draft.clear(key);
  }
  return draft.result();
}

export function mergeFrame(rows: ProjectionRows, frame: ProjectionFrameInput): MergeResult {
  const problem = invalidSeq(frame.seq);
  if (problem !== null) return { kind: 'invalid', reason: `frame ${frame.key}: ${problem}` };
  if (frame.value === undefined) return { kind: 'invalid', reason: `frame ${frame.key}: value is undefined` };
  const draft = new Draft(rows);
  draft.offer(frame.key, frame.value, frame.seq);
  return draft.result();
}
