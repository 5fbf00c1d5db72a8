import { StrandRpcError } from '@strand/protocol';
import { describe, expect, it } from 'vitest';
import { Catalog, createModelCatalog } from './catalog.js';
import { catalogFailed, catalogLoaded, catalogLoading, catalogRefreshing } from './catalog-state.js';
import type { RpcCaller } from '../connection/rpc-caller.js';

function deferred<T>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('catalog state', () => {
  it('starts loading with nothing to show', () => {
    expect(catalogLoading()).toEqual({ status: 'loading', last: null });
  });

  it('keeps the previous complete value during a refresh and after a failed refresh', () => {
    const ready = catalogLoaded(['a']);
    const refreshing = catalogRefreshing(ready);
    expect(refreshing).toEqual({ status: 'loading', last: { value: ['a'] } });
    const failed = catalogFailed(refreshing, 'down');
    expect(failed).toEqual({ status: 'error', error: 'down', last: { value: ['a'] } });
  });

  it('a first load that fails is an error with nothing to show', () => {
    expect(catalogFailed(catalogLoading(), 'down')).toEqual({ status: 'error', error: 'down', last: null });
  });
});

describe('Catalog', () => {
  it('goes loading → ready → loading (keeping the value) → error (keeping the value), notifying each step', async () => {
    const loads = [deferred<string[]>(), deferred<string[]>()];
    let call = 0;
    const catalog = new Catalog(() => loads[call++]!.promise);
    const seen: unknown[] = [];
    catalog.subscribe((state) => seen.push(state));

    const first = catalog.refresh();
    loads[0]!.resolve(['m1']);
    await first;
    const second = catalog.refresh();
    expect(catalog.state).toEqual({ status: 'loading', last: { value: ['m1'] } });
    loads[1]!.reject(new Error('down'));
    await second;
    expect(catalog.state).toMatchObject({ status: 'error', last: { value: ['m1'] } });
    expect(seen.map((state) => (state as { status: string }).status)).toEqual(['ready', 'loading', 'error']);
  });

  it('refresh never rejects: a failure is the error state', async () => {
    const catalog = new Catalog<string[]>(() => Promise.reject(new Error('down')));
    await expect(catalog.refresh()).resolves.toMatchObject({ status: 'error', last: null });
  });

  it('a slower, older load never overwrites a newer one', async () => {
    const loads = [deferred<string[]>(), deferred<string[]>()];
    let call = 0;
    const catalog = new Catalog(() => loads[call++]!.promise);
    const older = catalog.refresh();
    const newer = catalog.refresh();
    loads[1]!.resolve(['new']);
    await newer;
    loads[0]!.resolve(['old']);
    await older;
    expect(catalog.state).toEqual({ status: 'ready', last: { value: ['new'] } });
  });

  it('createModelCatalog loads catalog.models through the caller', async () => {
    const calls: unknown[][] = [];
    const rpc: RpcCaller = {
      call: (...args) => {
        calls.push(args);
        return Promise.resolve({ models: [{ provider: 'p', model: 'm', label: 'M' }] });
      },
    };
    const catalog = createModelCatalog(rpc);
    await catalog.refresh();
    expect(calls).toEqual([['catalog.models', {}]]);
    expect(catalog.state).toEqual({
      status: 'ready',
      last: { value: [{ provider: 'p', model: 'm', label: 'M' }] },
    });
  });

  it('keeps the typed host error of a failed load', async () => {
    const error = new StrandRpcError('HOST_CATALOG_UNAVAILABLE', -32007, 'no catalog');
    const catalog = new Catalog<string[]>(() => Promise.reject(error));
    await catalog.refresh();
    expect(catalog.state).toEqual({ status: 'error', error, last: null });
  });
});
