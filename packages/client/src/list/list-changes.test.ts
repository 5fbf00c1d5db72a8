import { describe, expect, it } from 'vitest';
import { ScriptedTransport } from '../test/scripted-transport.js';
import { ListChanges } from './list-changes.js';

/** A ListChanges over a scripted transport, recording what it tells. */
function watch(transport: ScriptedTransport): {
  told: string[][];
  subscribed: number[];
  changes: ListChanges;
} {
  const told: string[][] = [];
  const subscribed: number[] = [];
  const changes = new ListChanges(
    transport,
    { parent: null },
    {
      onChanged: (ids) => told.push([...ids]),
      onSubscribed: () => subscribed.push(transport.epoch),
    },
  );
  return { told, subscribed, changes };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('ListChanges', () => {
  it('subscribes with its filter, tells only its own well-formed frames, and unsubscribes on close', async () => {
    const transport = new ScriptedTransport();
    const { told, subscribed, changes } = watch(transport);
    const subscribe = transport.take('session.listSubscribe');
    expect(subscribe.params).toEqual({ parent: null });
    // Before its id is known, no frame is its own.
    transport.notify('list.changed', { subscriptionId: 'l1', ids: ['early'] });
    subscribe.resolve({ subscriptionId: 'l1' });
    await settle();
    expect(subscribed).toEqual([1]);
    transport.notify('list.changed', { subscriptionId: 'l1', ids: ['a', 'b'] });
    transport.notify('list.changed', { subscriptionId: 'l9', ids: ['other'] });
    transport.notify('list.changed', { subscriptionId: 'l1', ids: 'not a list' });
    expect(told).toEqual([['a', 'b']]);
    changes.close();
    expect(transport.take('session.listUnsubscribe').params).toEqual({ subscriptionId: 'l1' });
    transport.notify('list.changed', { subscriptionId: 'l1', ids: ['late'] });
    expect(told).toEqual([['a', 'b']]);
  });

  it('subscribes again on every open and says so; a lost socket’s late result is dropped', async () => {
    const transport = new ScriptedTransport();
    const { told, subscribed } = watch(transport);
    const first = transport.take('session.listSubscribe');
    transport.setState('connecting');
    transport.setState('open');
    // The first socket's answer arrives after it was lost: that subscription is gone on the host.
    first.resolve({ subscriptionId: 'l1' });
    await settle();
    expect(subscribed).toEqual([]);
    transport.take('session.listSubscribe').resolve({ subscriptionId: 'l2' });
    await settle();
    expect(subscribed).toEqual([2]);
    transport.notify('list.changed', { subscriptionId: 'l1', ids: ['stale'] });
    transport.notify('list.changed', { subscriptionId: 'l2', ids: ['fresh'] });
    expect(told).toEqual([['fresh']]);
  });

  it('still asks its owner to list when the host refuses to subscribe (an older host)', async () => {
    const transport = new ScriptedTransport();
    const { subscribed } = watch(transport);
    transport.take('session.listSubscribe').reject(new Error('RPC_METHOD_NOT_FOUND'));
    await settle();
    expect(subscribed).toEqual([1]);
  });
});
