import type { SessionEvent, SessionHeader, SessionLogOffset } from '@strand/session';
import { offset } from './brands.js';
import { ProjectionError, unitFailure } from './errors.js';
import { foldUnit } from './fold.js';
import type {
  AnyProjectionUnit,
  CheckpointRow,
  CheckpointRows,
  ProjectionKey,
  ProjectionSnapshot,
} from './types.js';

/** Every registered unit computed at one cut: all of them or (by throwing) none. */
export interface ColdProjection<K extends string = ProjectionKey> {
  /** The offset after the last event folded; `snapshot.asOfSeq` is `cut − 1`. */
  readonly cut: SessionLogOffset;
  readonly snapshot: ProjectionSnapshot<K>;
  /** Restorable state of every unit at `cut`, e.g. for a checkpoint row write. */
  readonly rows: CheckpointRows;
}

export interface RestoreInput {
  readonly header: SessionHeader;
  /** A seeded session's inherited event count; 0 (the default) for any other. */
  readonly inheritedEventCount?: number;
  /** Checkpoint rows to seed from; unusable rows are ignored. */
  readonly rows: CheckpointRows;
  /** The log's events with `seq >= from`, contiguous, to the cut being computed. */
  readonly events: readonly SessionEvent[];
  /** The seq of `events[0]` (a log offset); 0 when `events` is the whole log. */
  readonly from?: SessionLogOffset;
}

export type RestoreResult<K extends string = ProjectionKey> =
  /** Every unit is computed at `from + events.length`. `seeded` keys started from a row, `refolded` ones from `init`. */
  | {
      readonly kind: 'restored';
      readonly projection: ColdProjection<K>;
      readonly seeded: readonly string[];
      readonly refolded: readonly string[];
    }
  /**
   * Some units have no usable row at or after `from`, so they need the events before it: call
   * again with the whole log (`from` 0). Nothing was computed (all or none).
   */
  | { readonly kind: 'needs-prefix'; readonly keys: readonly string[] };

function rowFits(
  unit: AnyProjectionUnit,
  row: CheckpointRow | undefined,
  from: number,
  end: number,
): row is CheckpointRow {
  return (
    typeof row === 'object' &&
    row !== null &&
    row.stateVersion === unit.stateVersion &&
    Number.isSafeInteger(row.cut) &&
    row.cut >= from &&
    row.cut <= end
  );
}

function checkContiguous(events: readonly SessionEvent[], from: number): void {
  for (let i = 0; i < events.length; i++) {
    if (events[i]!.seq !== from + i) {
      throw new ProjectionError(
        'PROJECTION_EVENTS_NOT_CONTIGUOUS',
        `cold fold input: expected seq ${from + i}, got ${events[i]!.seq}`,
        {
          details: { seq: events[i]!.seq },
        },
      );
    }
  }
}

/**
 * The checkpoint/restore algebra: seeds each unit from a usable row (same stateVersion, a cut
 * inside `[from, end]`) and folds only the events after the row's cut; a unit without one folds
 * from `init` over the whole log. A seeded unit that throws on its row (a poisoned cache row) is
 * treated as having no row — the cache is derived data and its faults are misses, never verdicts —
 * while a unit that throws while folding the log from `init` fails the whole computation.
 *
 * Invariant (property-tested per built-in unit): for every cut c, restoring the rows of a fold at
 * c and folding the rest equals folding everything.
 */
export function restoreUnits<K extends string>(
  units: readonly AnyProjectionUnit[],
  input: RestoreInput,
): RestoreResult<K> {
  const from = input.from ?? 0;
  checkContiguous(input.events, from);
  const end = from + input.events.length;
  const sessionId = input.header.id;
  const rows: Record<string, CheckpointRow> = {};
  const values: [string, unknown][] = [];
  const seeded: string[] = [];
  const refolded: string[] = [];
  const missing: string[] = [];

  for (const unit of units) {
    const row = Object.hasOwn(input.rows, unit.key) ? input.rows[unit.key] : undefined;
    if (rowFits(unit, row, from, end)) {
      const folded = foldUnit(unit, row.state, input.events, row.cut - from);
      if (folded.kind === 'folded') {
        try {
          values.push([unit.key, unit.view(folded.state)]);
          rows[unit.key] = { stateVersion: unit.stateVersion, cut: offset(end), state: folded.state };
          seeded.push(unit.key);
          continue;
        } catch {
          // The row's state cannot be viewed: a poisoned row is a miss; refold from init below.
        }
      }
    }
    if (from !== 0) {
      missing.push(unit.key);
      continue;
    }
    let initial: unknown;
    try {
      initial = unit.init(input.header, { inheritedEventCount: input.inheritedEventCount ?? 0 });
    } catch (cause) {
      throw unitFailure(cause, { key: unit.key, phase: 'init', sessionId });
    }
    const folded = foldUnit(unit, initial, input.events, 0);
    if (folded.kind === 'threw') {
      throw unitFailure(folded.cause, {
        key: unit.key,
        phase: 'apply',
        seq: input.events[folded.index]!.seq,
        sessionId,
      });
    }
    try {
      values.push([unit.key, unit.view(folded.state)]);
    } catch (cause) {
      throw unitFailure(cause, { key: unit.key, phase: 'view', sessionId });
    }
    rows[unit.key] = { stateVersion: unit.stateVersion, cut: offset(end), state: folded.state };
    refolded.push(unit.key);
  }

  if (missing.length > 0) return { kind: 'needs-prefix', keys: missing };
  return {
    kind: 'restored',
    projection: {
      cut: offset(end),
      snapshot: { asOfSeq: end - 1, values: Object.fromEntries(values) as ProjectionSnapshot<K>['values'] },
      rows,
    },
    seeded,
    refolded,
  };
}

/**
 * The lowest offset a suffix read must start at for `restoreUnits` to compute every unit from
 * `rows` — 0 as soon as one unit has no usable row at or below `cursor` (the log's length).
 */
export function restoreStartOf(
  units: readonly AnyProjectionUnit[],
  rows: CheckpointRows,
  cursor: SessionLogOffset,
): SessionLogOffset {
  let start = cursor as number;
  for (const unit of units) {
    const row = Object.hasOwn(rows, unit.key) ? rows[unit.key] : undefined;
    if (!rowFits(unit, row, 0, cursor)) return offset(0);
    start = Math.min(start, row.cut);
  }
  return offset(start);
}

/** Folds a whole log (`events` from seq 0) with every unit: all-or-none, throwing `PROJECTION_FAILED`. */
export function foldAllUnits<K extends string>(
  units: readonly AnyProjectionUnit[],
  header: SessionHeader,
  events: readonly SessionEvent[],
  inheritedEventCount = 0,
): ColdProjection<K> {
  const result = restoreUnits<K>(units, { header, inheritedEventCount, rows: {}, events, from: offset(0) });
  // With `from` 0 every unit can fold from init, so `needs-prefix` cannot happen.
  if (result.kind === 'needs-prefix')
    throw new ProjectionError('PROJECTION_FAILED', 'unreachable: a fold from 0 needs no prefix');
  return result.projection;
}
