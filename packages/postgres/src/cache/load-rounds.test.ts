import { describe, expect, it } from 'vitest';
import { LOAD_CHUNK, LoadRounds } from './load-rounds.js';

/** A load whose calls are recorded and finished by the test, one at a time. */
function controlledLoads() {
  const calls: { ids: readonly string[]; finish: (error?: Error) => void }[] = [];
  const load = (ids: readonly string[]) =>
    new Promise<void>((resolve, reject) =>
      calls.push({ ids, finish: (error) => (error === undefined ? resolve() : reject(error)) }),
    );
  return { calls, load };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('LoadRounds', () => {
  it('gathers the requests of one burst into one round, and those made during it into the next', async () => {
    const { calls, load } = controlledLoads();
    const rounds = new LoadRounds({ load, held: () => [], isOpen: () => true, onFailure: () => undefined });
    const first = rounds.request(['a']);
    const alsoFirst = rounds.request(['b', 'a']);
    await flush();
    expect(calls.map((c) => c.ids)).toEqual([['a', 'b']]);
    expect(rounds.isPending('a')).toBe(true);
    const second = rounds.request(['c']);
    let firstDone = false;
    void first.then(() => (firstDone = true));
    calls[0]!.finish();
    await first;
    await alsoFirst;
    expect(firstDone).toBe(true);
    await flush();
    expect(calls.map((c) => c.ids)).toEqual([['a', 'b'], ['c']]);
    calls[1]!.finish();
    await second;
    await rounds.settled();
    expect(rounds.isPending('a')).toBe(false);
  });

  it('reloads every held id on requestHeld, and splits a round into chunks of LOAD_CHUNK', async () => {
    const { calls, load } = controlledLoads();
    const held = Array.from({ length: LOAD_CHUNK + 5 }, (_, i) => `s${i}`);
    const rounds = new LoadRounds({ load, held: () => held, isOpen: () => true, onFailure: () => undefined });
    const done = rounds.requestHeld();
    await flush();
    expect(calls[0]!.ids).toHaveLength(LOAD_CHUNK);
    calls[0]!.finish();
    await flush();
    expect(calls[1]!.ids).toEqual(held.slice(LOAD_CHUNK));
    calls[1]!.finish();
    await done;
  });

  it('reports a failed load, goes on with the next chunk and resolves the waiters (fault injection)', async () => {
    const failures: (readonly string[])[] = [];
    let attempts = 0;
    const rounds = new LoadRounds({
      load: () => (++attempts === 1 ? Promise.reject(new Error('connection lost')) : Promise.resolve()),
      held: () => Array.from({ length: LOAD_CHUNK + 1 }, (_, i) => `s${i}`),
      isOpen: () => true,
      onFailure: (ids) => {
        failures.push(ids);
        throw new Error('the reporter itself fails'); // must not stop the rounds
      },
    });
    await expect(rounds.requestHeld()).resolves.toBeUndefined();
    expect(attempts).toBe(2);
    expect(failures.map((ids) => ids.length)).toEqual([LOAD_CHUNK]);
    await expect(rounds.request(['again'])).resolves.toBeUndefined();
    expect(attempts).toBe(3);
  });

  it('starts no round once closed, and its waiters resolve', async () => {
    let open = true;
    const { calls, load } = controlledLoads();
    const rounds = new LoadRounds({ load, held: () => [], isOpen: () => open, onFailure: () => undefined });
    const pending = rounds.request(['a']);
    open = false;
    await pending;
    await expect(rounds.request(['b'])).resolves.toBeUndefined();
    expect(calls).toEqual([]);
  });
});
