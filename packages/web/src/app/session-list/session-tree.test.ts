import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listKeyAction } from './list-keys.js';
import {
  activityOf,
  buildTree,
  compareByActivity,
  filterChoices,
  flatRows,
  STRAND_HARNESS,
  visibleRows,
  type ListEntry,
  type TreeNode,
} from './session-tree.js';
import { NO_FILTER, type ListFilter } from '../shared/routing/list-filter-params.js';

const entry = (id: string, fields: Partial<ListEntry> = {}): ListEntry => ({
  id,
  parentId: null,
  createdAt: 0,
  lastPromptAt: undefined,
  cwd: null,
  harness: null,
  ...fields,
});

const ids = (rows: readonly { entry: ListEntry }[]): string[] => rows.map((row) => row.entry.id);

/** Every node of `tree` with its parent's id (`null` at the top level), depth first. */
function walk(
  tree: readonly TreeNode[],
  parent: string | null = null,
): { node: TreeNode; parent: string | null }[] {
  return tree.flatMap((node) => [{ node, parent }, ...walk(node.children, node.entry.id)]);
}

const ALL = new Set<string>();
const expandAll = (tree: readonly TreeNode[]): Set<string> =>
  new Set(walk(tree).map(({ node }) => node.entry.id));

describe('activityOf', () => {
  it('uses the last prompt when known, else the creation time — unknown and "no prompt yet" alike', () => {
    expect(activityOf(entry('a', { createdAt: 5, lastPromptAt: 9 }))).toEqual({
      at: 9,
      source: 'last-prompt',
    });
    expect(activityOf(entry('a', { createdAt: 5, lastPromptAt: null }))).toEqual({
      at: 5,
      source: 'created',
    });
    expect(activityOf(entry('a', { createdAt: 5 }))).toEqual({ at: 5, source: 'created' });
  });
});

describe('buildTree', () => {
  it('nests a child under its parent and sorts the top level by last activity', () => {
    const tree = buildTree([
      entry('old', { createdAt: 1 }),
      entry('prompted', { createdAt: 0, lastPromptAt: 50 }),
      entry('new', { createdAt: 10 }),
      entry('kid', { parentId: 'old', createdAt: 100 }),
    ]);
    expect(tree.map((node) => node.entry.id)).toEqual(['prompted', 'new', 'old']);
    expect(tree[2]!.children.map((node) => node.entry.id)).toEqual(['kid']);
    // Collapsed by default: a child is not a visible row until its parent is expanded.
    expect(ids(visibleRows(tree, ALL))).toEqual(['prompted', 'new', 'old']);
    const open = visibleRows(tree, new Set(['old']));
    expect(ids(open)).toEqual(['prompted', 'new', 'old', 'kid']);
    expect(open[2]).toMatchObject({ childCount: 1, expanded: true, depth: 0 });
    expect(open[3]).toMatchObject({ depth: 1, parentId: 'old', position: 1, siblings: 1 });
  });

  it('puts an orphan at the top level, marked, and a child of a filtered-out parent too', () => {
    const entries = [
      entry('p', { cwd: '/a' }),
      entry('kid', { parentId: 'p', cwd: '/b' }),
      entry('orphan', { parentId: 'gone', cwd: '/b' }),
    ];
    const tree = buildTree(entries);
    expect(tree.find((node) => node.entry.id === 'orphan')?.detached).toBe('parent-missing');
    expect(tree.find((node) => node.entry.id === 'p')?.detached).toBeNull();
    const filtered = buildTree(entries, { cwd: '/b', harness: null });
    expect(filtered.map((node) => [node.entry.id, node.detached])).toEqual([
      ['kid', 'parent-filtered'],
      ['orphan', 'parent-missing'],
    ]);
  });

  it('keeps every member of a parent cycle, entering it at the newest', () => {
    const tree = buildTree([
      entry('a', { parentId: 'b', createdAt: 1 }),
      entry('b', { parentId: 'a', createdAt: 2 }),
      entry('self', { parentId: 'self', createdAt: 0 }),
    ]);
    expect(tree.map((node) => [node.entry.id, node.detached])).toEqual([
      ['b', 'cycle'],
      ['self', 'cycle'],
    ]);
    expect(tree[0]!.children.map((node) => node.entry.id)).toEqual(['a']);
  });
});

describe('filters', () => {
  const entries = [
    entry('own', { cwd: '/x' }),
    entry('codex', { cwd: '/y', harness: 'codex' }),
    entry('claude', { cwd: '/x', harness: 'claude-code' }),
    entry('nowhere'),
  ];
  it('narrow by project and by harness, Strand’s own being the sessions without a source', () => {
    expect(ids(flatRows(entries, { cwd: '/x', harness: null })).sort()).toEqual(['claude', 'own']);
    expect(ids(flatRows(entries, { cwd: null, harness: STRAND_HARNESS })).sort()).toEqual(['nowhere', 'own']);
    expect(ids(flatRows(entries, { cwd: '/x', harness: 'codex' }))).toEqual([]);
  });
  it('offer every project and harness present', () => {
    expect(filterChoices(entries)).toEqual({
      cwds: ['/x', '/y'],
      harnesses: ['claude-code', 'codex', 'strand'],
    });
  });
});

describe('listKeyAction', () => {
  const tree = buildTree([
    entry('p', { createdAt: 3 }),
    entry('kid', { parentId: 'p', createdAt: 1 }),
    entry('q', { createdAt: 2 }),
  ]);
  const collapsed = visibleRows(tree, ALL);
  const open = visibleRows(tree, new Set(['p']));
  it('moves with the arrows, Home and End, and starts at the first row', () => {
    expect(listKeyAction(collapsed, null, 'ArrowDown')).toEqual({ kind: 'move', id: 'p' });
    expect(listKeyAction(collapsed, 'p', 'ArrowDown')).toEqual({ kind: 'move', id: 'q' });
    expect(listKeyAction(collapsed, 'q', 'ArrowDown')).toEqual({ kind: 'none' });
    expect(listKeyAction(collapsed, 'q', 'ArrowUp')).toEqual({ kind: 'move', id: 'p' });
    expect(listKeyAction(open, 'p', 'End')).toEqual({ kind: 'move', id: 'q' });
    expect(listKeyAction(open, 'q', 'Home')).toEqual({ kind: 'move', id: 'p' });
    expect(listKeyAction(open, 'gone', 'End')).toEqual({ kind: 'move', id: 'q' });
  });
  it('expands and collapses with Right and Left, enters and leaves children, opens with Enter', () => {
    expect(listKeyAction(collapsed, 'p', 'ArrowRight')).toEqual({ kind: 'expand', id: 'p' });
    expect(listKeyAction(open, 'p', 'ArrowRight')).toEqual({ kind: 'move', id: 'kid' });
    expect(listKeyAction(open, 'kid', 'ArrowLeft')).toEqual({ kind: 'move', id: 'p' });
    expect(listKeyAction(open, 'p', 'ArrowLeft')).toEqual({ kind: 'collapse', id: 'p' });
    expect(listKeyAction(collapsed, 'q', 'ArrowRight')).toEqual({ kind: 'none' });
    expect(listKeyAction(open, 'kid', 'Enter')).toEqual({ kind: 'open', id: 'kid' });
  });
});

// Small id and time ranges on purpose: they make parents, cycles, orphans and ties common.
const anyEntries = fc
  .uniqueArray(
    fc.record({
      id: fc.integer({ min: 0, max: 30 }).map((n) => `s${n}`),
      parentId: fc.option(
        fc.integer({ min: 0, max: 35 }).map((n) => `s${n}`),
        { nil: null },
      ),
      createdAt: fc.integer({ min: 0, max: 20 }),
      lastPromptAt: fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer({ min: 0, max: 20 })),
      cwd: fc.constantFrom(null, '/a', '/b'),
      harness: fc.constantFrom(null, 'codex', 'claude-code'),
    }),
    { selector: (e) => e.id, maxLength: 30 },
  )
  .map((list) => list as ListEntry[]);
const anyFilter: fc.Arbitrary<ListFilter> = fc.record({
  cwd: fc.constantFrom(null, '/a', '/b'),
  harness: fc.constantFrom(null, 'codex', STRAND_HARNESS),
});

describe('properties of the session tree', () => {
  it('every entry that passes the filter appears exactly once, fully expanded and flat alike', () => {
    fc.assert(
      fc.property(anyEntries, anyFilter, (entries, filter) => {
        const tree = buildTree(entries, filter);
        const expected = ids(flatRows(entries, filter)).sort();
        expect(ids(visibleRows(tree, expandAll(tree))).sort()).toEqual(expected);
        expect(ids(walk(tree).map(({ node }) => node)).sort()).toEqual(expected);
        const all = entries.map((e) => e.id).sort();
        expect(ids(flatRows(entries, NO_FILTER)).sort()).toEqual(all);
      }),
    );
  });

  it('a child sits under its parent whenever the parent is shown (and no cycle forces it out)', () => {
    fc.assert(
      fc.property(anyEntries, anyFilter, (entries, filter) => {
        const tree = buildTree(entries, filter);
        const nodes = walk(tree);
        const shown = new Set(nodes.map(({ node }) => node.entry.id));
        for (const { node, parent } of nodes) {
          if (parent !== null) expect(node.entry.parentId).toBe(parent);
          else if (node.entry.parentId === null) expect(node.detached).toBeNull();
          else if (node.detached !== 'cycle') {
            expect(shown.has(node.entry.parentId)).toBe(false);
            const inList = entries.some((e) => e.id === node.entry.parentId);
            expect(node.detached).toBe(inList ? 'parent-filtered' : 'parent-missing');
          }
        }
      }),
    );
  });

  it('siblings and the top level are in the documented order: last prompt else creation, newest first', () => {
    fc.assert(
      fc.property(anyEntries, anyFilter, (entries, filter) => {
        const check = (nodes: readonly TreeNode[]): void => {
          for (let i = 1; i < nodes.length; i++)
            expect(compareByActivity(nodes[i - 1]!.entry, nodes[i]!.entry)).toBeLessThan(0);
          for (const node of nodes) check(node.children);
        };
        check(buildTree(entries, filter));
        const flat = flatRows(entries, filter);
        for (let i = 1; i < flat.length; i++)
          expect(activityOf(flat[i - 1]!.entry).at).toBeGreaterThanOrEqual(activityOf(flat[i]!.entry).at);
      }),
    );
  });

  it('keys never leave the visible rows', () => {
    const keys = ['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'Enter', 'x'];
    fc.assert(
      fc.property(anyEntries, fc.array(fc.constantFrom(...keys)), (entries, presses) => {
        const tree = buildTree(entries);
        const expanded = new Set<string>();
        let active: string | null = null;
        for (const key of presses) {
          const rows = visibleRows(tree, expanded);
          const action = listKeyAction(rows, active, key);
          if (action.kind === 'none') continue;
          expect(ids(rows)).toContain(action.id);
          if (action.kind === 'move') active = action.id;
          else if (action.kind === 'expand') expanded.add(action.id);
          else if (action.kind === 'collapse') expanded.delete(action.id);
        }
      }),
    );
  });
});
