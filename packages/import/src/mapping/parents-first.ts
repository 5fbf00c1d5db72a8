/** A session row of a store that records each session's parent by id. */
export interface ParentedRow {
  readonly id: string;
  readonly parentId: string | null;
}

/**
 * The rows ordered so that every parent comes before its children (by depth in the parent chain,
 * stable within a depth): a child's plan is seeded from its parent's, so the parent must be mapped
 * first. A chain that loops or names a row that is not there ends where it does, never hangs.
 */
export function parentsFirst<Row extends ParentedRow>(rows: readonly Row[]): Row[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const depth = new Map(rows.map((r) => [r.id, depthOf(r, byId)]));
  return [...rows].sort((a, b) => depth.get(a.id)! - depth.get(b.id)!);
}

/** How many parents up the chain `row` has among `byId` (a subagent's delegation depth). */
export function depthOf(row: ParentedRow, byId: ReadonlyMap<string, ParentedRow>): number {
  let depth = 0;
  const seen = new Set<string>();
  for (let r: ParentedRow | undefined = row; r?.parentId != null && !seen.has(r.id); depth++) {
    seen.add(r.id);
    r = byId.get(r.parentId);
  }
  return depth;
}
