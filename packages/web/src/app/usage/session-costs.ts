import type { SessionListRow, UsageRow } from '@strand/protocol';
import { formatCost } from './usage-format.js';

/** A session's cost as the list shows it: the host's figures for it, never priced here. */
export interface RowCost {
  /** USD by the host's price table; null when nothing in it is priced. */
  readonly cost: number | null;
  readonly unpriced: readonly string[];
  /** What the harness itself reported, if it did. */
  readonly reported: number | null;
}

/**
 * The costs of `usage.summary`'s `by: 'session'` rows by session id. A session with no model
 * response has no row, and so no cost in the list (not "$0.00", which would claim it was priced).
 */
export function sessionCosts(rows: readonly UsageRow[]): ReadonlyMap<string, RowCost> {
  const out = new Map<string, RowCost>();
  for (const row of rows)
    out.set(row.key, {
      cost: row.totalCost,
      unpriced: row.unpricedModels,
      reported: row.reportedCost ?? null,
    });
  return out;
}

/**
 * `current` with the sessions `asked` priced anew from their `usage.summary` rows: an asked session
 * without a row has no model response (yet), so no cost; costs of sessions not asked stay.
 */
export function mergeCosts(
  current: ReadonlyMap<string, RowCost>,
  asked: readonly string[],
  rows: readonly UsageRow[],
): ReadonlyMap<string, RowCost> {
  const next = new Map(current);
  for (const id of asked) next.delete(id);
  for (const [id, cost] of sessionCosts(rows)) next.set(id, cost);
  return next;
}

/** The rows to price: never priced, or read anew since (a re-read row is a new object). */
export function unpricedRows(
  rows: readonly SessionListRow[],
  priced: ReadonlyMap<string, SessionListRow>,
): SessionListRow[] {
  return rows.filter((row) => priced.get(row.header.id) !== row);
}

/**
 * The list row's cost label and its tooltip: `$0.07`, `—` where no token is priced, a `*` where
 * some models are not; the tooltip names them and the harness's own figure beside Strand's.
 */
export function costLabel(cost: RowCost, locale?: string): { text: string; title: string } {
  const partial = cost.cost !== null && cost.unpriced.length > 0;
  const lines = [
    cost.cost === null
      ? 'cost unknown: no model of this session is in the price table'
      : `cost by the price table: ${formatCost(cost.cost, locale)}`,
  ];
  if (cost.unpriced.length > 0) lines.push(`not priced: ${cost.unpriced.join(', ')}`);
  if (cost.reported !== null) lines.push(`the harness reported ${formatCost(cost.reported, locale)}`);
  return { text: `${formatCost(cost.cost, locale)}${partial ? '*' : ''}`, title: lines.join('\n') };
}
