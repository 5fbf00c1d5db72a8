/**
 * The session list's shape, as pure functions of the list rows: which rows pass the filters, how
 * children nest under their parents, the order, and which rows are visible given what is
 * expanded. No React, no store: the view hands in entries it read from the wire and the store.
 *
 * Invariants (checked by the property test in `session-tree.test.ts`):
 * - every entry that passes the filter appears exactly once in the tree (a parent cycle or a
 *   missing parent puts the child at the top level, marked `detached`, never drops it);
 * - a child sits under its parent whenever the parent passes the filter too;
 * - siblings (and the top level) are ordered by `activityOf` — newest first, ties by id.
 */
import { lastActivityAt } from '@strand/projection';
import { STRAND_HARNESS } from '@strand/session';
import { NO_FILTER, type ListFilter } from '../shared/routing/list-filter-params.js';

/** What the list needs of one `session.list` row. */
export interface ListEntry {
  readonly id: string;
  /** `header.parentSession` of a subagent child (`origin === 'subagent'`); `null` for the rest. */
  readonly parentId: string | null;
  readonly createdAt: number;
  /**
   * `listMetadata.lastPromptAt` from the store: a number once a person prompted, `null` when the
   * hint is known and there was no prompt yet, `undefined` when the hint is unknown.
   */
  readonly lastPromptAt: number | null | undefined;
  /** `header.cwd`; `null` when the header has none. */
  readonly cwd: string | null;
  /** `header.source.harness`; `null` for Strand's own sessions. */
  readonly harness: string | null;
}

/** The harness filter's value for sessions without a `source`: Strand's own. */
export { STRAND_HARNESS };

/** When the row was last active, and which fact said so. */
export interface Activity {
  readonly at: number;
  readonly source: 'last-prompt' | 'created';
}

/**
 * The documented sort key, by the one rule the host's `session.list` order uses too
 * (`lastActivityAt`, @strand/projection): the last human prompt (`listMetadata.lastPromptAt`) when
 * the store knows one, else the header's `createdAt`. Never a guess (not the last event's time,
 * not "now").
 */
export function activityOf(entry: ListEntry): Activity {
  const at = lastActivityAt(entry.createdAt, { lastPromptAt: entry.lastPromptAt });
  return { at, source: at === entry.lastPromptAt ? 'last-prompt' : 'created' };
}

/** Newest activity first; equal times by id, so the order is total and stable across refreshes. */
export function compareByActivity(a: ListEntry, b: ListEntry): number {
  const delta = activityOf(b).at - activityOf(a).at;
  if (delta !== 0) return delta;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function matchesFilter(entry: ListEntry, filter: ListFilter): boolean {
  if (filter.cwd !== null && entry.cwd !== filter.cwd) return false;
  if (filter.harness !== null && (entry.harness ?? STRAND_HARNESS) !== filter.harness) return false;
  return true;
}

/** The values the filter controls offer: every project and harness present, sorted. */
export function filterChoices(entries: readonly ListEntry[]): { cwds: string[]; harnesses: string[] } {
  const cwds = new Set<string>();
  const harnesses = new Set<string>();
  for (const entry of entries) {
    if (entry.cwd !== null) cwds.add(entry.cwd);
    harnesses.add(entry.harness ?? STRAND_HARNESS);
  }
  return { cwds: [...cwds].sort(), harnesses: [...harnesses].sort() };
}

/**
 * Why a child shows at the top level: its parent is not in the list at all (`parent-missing`),
 * is hidden by the filter (`parent-filtered`), or the parent links form a cycle (`cycle`).
 */
export type Detached = 'parent-missing' | 'parent-filtered' | 'cycle';

export interface TreeNode {
  readonly entry: ListEntry;
  readonly children: readonly TreeNode[];
  /** Set on a top-level child only. */
  readonly detached: Detached | null;
}

/** Nests the entries that pass `filter` under their parents; top level and siblings by activity. */
export function buildTree(entries: readonly ListEntry[], filter: ListFilter = NO_FILTER): TreeNode[] {
  const allIds = new Set(entries.map((entry) => entry.id));
  const shown = entries.filter((entry) => matchesFilter(entry, filter)).sort(compareByActivity);
  const shownIds = new Set(shown.map((entry) => entry.id));
  const childrenOf = new Map<string, ListEntry[]>();
  const roots: { entry: ListEntry; detached: Detached | null }[] = [];
  for (const entry of shown) {
    const parent = entry.parentId;
    if (parent !== null && parent !== entry.id && shownIds.has(parent)) {
      const siblings = childrenOf.get(parent);
      if (siblings === undefined) childrenOf.set(parent, [entry]);
      else siblings.push(entry);
    } else if (parent === null) {
      roots.push({ entry, detached: null });
    } else {
      roots.push({
        entry,
        detached: parent === entry.id ? 'cycle' : allIds.has(parent) ? 'parent-filtered' : 'parent-missing',
      });
    }
  }
  const placed = new Set<string>();
  const grow = (entry: ListEntry, detached: Detached | null): TreeNode => {
    placed.add(entry.id);
    const children = (childrenOf.get(entry.id) ?? [])
      .filter((child) => !placed.has(child.id))
      .map((child) => grow(child, null));
    return { entry, children, detached };
  };
  const tree = roots.map(({ entry, detached }) => grow(entry, detached));
  // Entries whose parent links loop never reach a root: each loop enters at its newest member,
  // so nothing shown is ever dropped.
  for (const entry of shown) {
    if (!placed.has(entry.id)) tree.push(grow(entry, 'cycle'));
  }
  return tree.sort((a, b) => compareByActivity(a.entry, b.entry));
}

/** One rendered row of the list. */
export interface VisibleRow {
  readonly entry: ListEntry;
  /** 0 for the top level. */
  readonly depth: number;
  /** Direct children in the tree (0 in the flat list). */
  readonly childCount: number;
  readonly expanded: boolean;
  readonly detached: Detached | null;
  /** The visible row this one sits under (Left moves there); `null` at the top level. */
  readonly parentId: string | null;
  /** Position among its siblings (1-based) and their number, for `aria-posinset`/`aria-setsize`. */
  readonly position: number;
  readonly siblings: number;
}

/** The rows shown, depth first: a node's children follow it only while it is in `expanded`. */
export function visibleRows(tree: readonly TreeNode[], expanded: ReadonlySet<string>): VisibleRow[] {
  const rows: VisibleRow[] = [];
  const walk = (nodes: readonly TreeNode[], depth: number, parentId: string | null): void => {
    nodes.forEach((node, index) => {
      const open = node.children.length > 0 && expanded.has(node.entry.id);
      rows.push({
        entry: node.entry,
        depth,
        childCount: node.children.length,
        expanded: open,
        detached: node.detached,
        parentId,
        position: index + 1,
        siblings: nodes.length,
      });
      if (open) walk(node.children, depth + 1, node.entry.id);
    });
  };
  walk(tree, 0, null);
  return rows;
}

/** The "show subagents" list: every entry that passes `filter`, children included, by activity. */
export function flatRows(entries: readonly ListEntry[], filter: ListFilter = NO_FILTER): VisibleRow[] {
  const shown = entries.filter((entry) => matchesFilter(entry, filter)).sort(compareByActivity);
  return shown.map((entry, index) => ({
    entry,
    depth: 0,
    childCount: 0,
    expanded: false,
    detached: null,
    parentId: null,
    position: index + 1,
    siblings: shown.length,
  }));
}
