import { afterEach, describe, expect, it } from 'vitest';
import type { SessionListRow } from '@strand/protocol';
import { SessionId, type SessionEvent } from '@strand/session';
import { DelegatingPersistence, writeStoredSession } from '@strand/test-support';
import type { RpcTestClient } from './testing/host-fixture.js';
import { startTestHost, type TestHost } from './testing/test-host.js';

/*
 * `session.listSubscribe` over a real host and runtime: a subscriber hears of a session created,
 * imported, renamed, prompted and deleted — never before the change is durable (appends held
 * after their write until the test releases them) — and nothing once it unsubscribed.
 *
 * "Nothing was sent" is shown without a clock: a *fence* (a session created meanwhile, whose
 * create is never held) is told in a frame of its own after everything the host had to tell
 * before it, so frames up to the fence's hold every earlier change.
 */

/** Appends written, then held unacknowledged while `held` (a sync that has not returned). */
class HeldPersistence extends DelegatingPersistence {
  held = false;
  readonly #waiting: (() => void)[] = [];
  #arrived: (() => void) | undefined;

  /** Resolves once an append is held. */
  nextHeld(): Promise<void> {
    return new Promise((resolve) => (this.#arrived = resolve));
  }

  release(): void {
    this.held = false;
    for (const go of this.#waiting.splice(0)) go();
  }

  override async append(
    id: SessionId,
    events: readonly SessionEvent[],
  ): Promise<{ readonly revision: string }> {
    const written = await this.inner.append(id, events);
    if (!this.held) return written;
    await new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      this.#arrived?.();
    });
    return written;
  }
}

type Changed = { subscriptionId: string; ids: string[] };

let test: TestHost | undefined;
afterEach(async () => {
  await test?.close();
  test = undefined;
});

async function start(): Promise<{ test: TestHost; held: HeldPersistence }> {
  let held: HeldPersistence | undefined;
  test = await startTestHost({
    prefix: 'strand-list-changes',
    runtime: { syncSearch: false, wrapPersistence: (inner) => (held = new HeldPersistence(inner)) },
  });
  return { test, held: held! };
}

/** The ids of every `list.changed` of `subscriptionId` received from frame index `from` on. */
function changedSince(client: RpcTestClient, subscriptionId: string, from: number): string[] {
  return client.frames
    .slice(from)
    .filter((m) => m.method === 'list.changed' && (m.params as Changed).subscriptionId === subscriptionId)
    .flatMap((m) => (m.params as Changed).ids);
}

function told(client: RpcTestClient, subscriptionId: string, id: string, from: number): Promise<unknown> {
  return client.waitFor(
    (m) =>
      m.method === 'list.changed' &&
      client.frames.indexOf(m) >= from &&
      (m.params as Changed).subscriptionId === subscriptionId &&
      (m.params as Changed).ids.includes(id),
  );
}

async function rowOf(client: RpcTestClient, id: string): Promise<SessionListRow | undefined> {
  const { sessions } = await client.call<{ sessions: SessionListRow[] }>('session.list', { ids: [id] });
  return sessions[0];
}

describe('list.changed', () => {
  it('tells a subscriber of a create, an import, a rename, a prompt and a delete, each once durable', async () => {
    const { test, held } = await start();
    const watcher = await test.connect();
    const actor = await test.connect();
    const { subscriptionId } = await watcher.call<{ subscriptionId: string }>('session.listSubscribe', {});
    let fences = 0;
    /** Everything the host had to tell before now is in the watcher's frames once this returns. */
    const fence = async (): Promise<void> => {
      const mark = watcher.frames.length;
      const { id } = await actor.call<{ id: string }>('session.create', { cwd: `/fence/${++fences}` });
      await told(watcher, subscriptionId, id, mark);
    };

    // Created: told, and the row is there to re-read.
    let mark = watcher.frames.length;
    const { id } = await actor.call<{ id: string }>('session.create', { cwd: '/work' });
    await told(watcher, subscriptionId, id, mark);
    expect((await rowOf(watcher, id))?.header.cwd).toBe('/work');
    // An interactive follow keeps it attached, so nothing but the changes below moves its row.
    await actor.call('session.follow', { id, interactive: true });
    await fence();

    // Renamed with its append held after the write: not told until the write is acknowledged.
    mark = watcher.frames.length;
    held.held = true;
    const heldAppend = held.nextHeld();
    const renamed = actor.call('session.rename', { id, title: 'Held title' });
    await heldAppend;
    await fence();
    expect(changedSince(watcher, subscriptionId, mark)).not.toContain(id);
    held.release();
    await renamed;
    await told(watcher, subscriptionId, id, mark);
    expect((await rowOf(watcher, id))?.hints?.values).toMatchObject({ title: 'Held title' });

    // Prompted: its last activity moved (and it was busy, then idle).
    mark = watcher.frames.length;
    await actor.call('session.prompt', { id, text: 'hello there' });
    await test.runtime.agents.whenSettled();
    await fence();
    expect(changedSince(watcher, subscriptionId, mark)).toContain(id);
    const prompted = await rowOf(watcher, id);
    expect(prompted?.busy).toBe(false);
    expect(prompted?.hints?.values.listMetadata).toMatchObject({
      lastPromptAt: expect.any(Number) as number,
    });

    // Imported (written beside the host, its list row noted, as `serve --watch` does), then deleted.
    const { persistence, cache } = test.runtime.services;
    mark = watcher.frames.length;
    const imported = await writeStoredSession(persistence, 'imported-1', 1);
    cache!.noteSession({ header: imported.header, incarnation: imported.incarnation! });
    await told(watcher, subscriptionId, 'imported-1', mark);
    expect(await rowOf(watcher, 'imported-1')).toBeDefined();
    mark = watcher.frames.length;
    await persistence.delete(SessionId('imported-1'));
    cache!.dropSession(SessionId('imported-1'));
    await told(watcher, subscriptionId, 'imported-1', mark);
    expect(await rowOf(watcher, 'imported-1')).toBeUndefined();

    // Every frame names each id once.
    for (const frame of watcher.frames.filter((m) => m.method === 'list.changed')) {
      const ids = (frame.params as Changed).ids;
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('stops at listUnsubscribe, which refuses an id it does not hold; filters by header facts', async () => {
    const { test } = await start();
    const leaving = await test.connect();
    const staying = await test.connect();
    const actor = await test.connect();
    const gone = await leaving.call<{ subscriptionId: string }>('session.listSubscribe', {});
    const all = await staying.call<{ subscriptionId: string }>('session.listSubscribe', {});
    const onlyA = await staying.call<{ subscriptionId: string }>('session.listSubscribe', { cwd: '/a' });
    // Another connection cannot end it.
    const stranger = await actor.request('session.listUnsubscribe', { subscriptionId: gone.subscriptionId });
    expect(stranger.error?.data.code).toBe('HOST_LIST_SUBSCRIPTION_NOT_FOUND');
    await expect(leaving.call('session.listUnsubscribe', gone)).resolves.toEqual({ ok: true });
    const again = await leaving.request('session.listUnsubscribe', gone);
    expect(again.error?.data.code).toBe('HOST_LIST_SUBSCRIPTION_NOT_FOUND');

    const leavingMark = leaving.frames.length;
    const mark = staying.frames.length;
    const { id: inB } = await actor.call<{ id: string }>('session.create', { cwd: '/b' });
    const { id: inA } = await actor.call<{ id: string }>('session.create', { cwd: '/a' });
    await told(staying, all.subscriptionId, inB, mark);
    await told(staying, onlyA.subscriptionId, inA, mark);
    // Frames on one connection are in order: `all` was told of /a's after /b's, so by then the
    // `/a` subscription had its chance to be told of /b's and was not.
    await told(staying, all.subscriptionId, inA, mark);
    expect(changedSince(staying, onlyA.subscriptionId, mark)).not.toContain(inB);
    // A reply sent after those frames were flushed: anything flushed to `leaving` is ahead of it.
    await leaving.call('catalog.presets');
    expect(leaving.frames.slice(leavingMark).filter((m) => m.method === 'list.changed')).toEqual([]);
  });
});
