import { describe, expect, it } from 'vitest';
import type { SubagentListEntry } from '@strand/protocol';
import { LevelLoader, type LevelListing, type LevelState } from './subagent-level.js';

const child = (id: string): SubagentListEntry => ({
  kind: 'child',
  id,
  activity: 'inactive',
  hasChildren: false,
  mode: 'one-shot',
  label: id,
});
const listing = (...ids: string[]): LevelListing => ({ rows: ids.map(child), timing: {} });

/** A `subagent.list` the test answers by hand, one call at a time. */
function scriptedList() {
  const calls: { resolve: (listing: LevelListing) => void; reject: (error: Error) => void }[] = [];
  const list = (): Promise<LevelListing> =>
    new Promise((resolve, reject) => {
      calls.push({ resolve, reject });
    });
  return { calls, list };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function observed(loader: LevelLoader): LevelState[] {
  const seen: LevelState[] = [loader.state];
  loader.subscribe(() => seen.push(loader.state));
  return seen;
}

const rowIds = (state: LevelState): string[] | null =>
  state.kind === 'ready' ? state.listing.rows.map((row) => row.id) : null;

describe('LevelLoader', () => {
  it('a failed refresh keeps the rows it had and says why; the next success clears it', async () => {
    const { calls, list } = scriptedList();
    const loader = new LevelLoader(list, (error) => (error as Error).message);
    loader.open();
    const seen = observed(loader);
    loader.refresh();
    calls[0]!.resolve(listing('a', 'b'));
    await settle();
    loader.refresh();
    calls[1]!.reject(new Error('host away'));
    await settle();
    expect(loader.state).toMatchObject({ kind: 'ready', refreshing: false, refreshError: 'host away' });
    expect(rowIds(loader.state)).toEqual(['a', 'b']);
    loader.refresh();
    calls[2]!.resolve(listing('a', 'b', 'c'));
    await settle();
    expect(loader.state).toMatchObject({ kind: 'ready', refreshError: null });
    expect(rowIds(loader.state)).toEqual(['a', 'b', 'c']);
    // Once it had rows it never showed "loading" or no rows again.
    const after = seen.slice(seen.findIndex((state) => state.kind === 'ready'));
    expect(after.every((state) => state.kind === 'ready' && state.listing.rows.length >= 2)).toBe(true);
  });

  it('a first listing that fails is an error, and retrying it loads', async () => {
    const { calls, list } = scriptedList();
    const loader = new LevelLoader(list, (error) => (error as Error).message);
    loader.open();
    loader.refresh();
    calls[0]!.reject(new Error('no catalog'));
    await settle();
    expect(loader.state).toEqual({ kind: 'error', message: 'no catalog' });
    loader.refresh();
    expect(loader.state).toEqual({ kind: 'loading' });
    calls[1]!.resolve(listing('a'));
    await settle();
    expect(rowIds(loader.state)).toEqual(['a']);
  });

  it('refreshes asked for during a listing coalesce into one more listing after it, answered in order', async () => {
    const { calls, list } = scriptedList();
    const loader = new LevelLoader(list, String);
    loader.open();
    loader.refresh();
    loader.refresh();
    loader.refresh();
    expect(calls).toHaveLength(1);
    calls[0]!.resolve(listing('old'));
    await settle();
    // The first answer may predate the later notices: shown, but still refreshing.
    expect(loader.state).toMatchObject({ kind: 'ready', refreshing: true });
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(listing('old', 'new'));
    await settle();
    expect(loader.state).toMatchObject({ kind: 'ready', refreshing: false });
    expect(rowIds(loader.state)).toEqual(['old', 'new']);
    expect(calls).toHaveLength(2);
  });

  it('lists only while open; an answer that lands after close is dropped; opened again, it lists', async () => {
    const { calls, list } = scriptedList();
    const loader = new LevelLoader(list, String);
    const seen = observed(loader);
    loader.refresh();
    expect(calls).toHaveLength(0);
    const close = loader.open();
    loader.refresh();
    close();
    calls[0]!.resolve(listing('a'));
    await settle();
    loader.refresh();
    expect(calls).toHaveLength(1);
    expect(seen).toEqual([{ kind: 'loading' }]);
    // Closed and opened again at once, as React's development mode does on mount.
    loader.open();
    loader.refresh();
    calls[1]!.resolve(listing('b'));
    await settle();
    expect(rowIds(loader.state)).toEqual(['b']);
  });
});
