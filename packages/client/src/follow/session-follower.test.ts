import { StrandRpcError } from '@strand/protocol';
import { describe, expect, it } from 'vitest';
import { isStrandClientError, StrandClientError } from '../errors.js';
import { ProjectionStore } from '../projection-store/projection-store.js';
import { drain, ev, evs, ScriptedTransport, snapshotOf } from '../test/scripted-transport.js';
import { SessionFollower } from './session-follower.js';

function setup(options: { maxBufferedFrames?: number; maxGapFill?: number } = {}) {
  const transport = new ScriptedTransport();
  const store = new ProjectionStore();
  const follower = new SessionFollower({ connection: transport, store, ...options });
  return { transport, store, follower };
}

const seqs = (follower: SessionFollower): number[] =>
  follower.view.shown?.events.map((event) => event.seq) ?? [];

/** Follows `s` and accepts generation 1 as `f1` with events [firstSeq, cursor). */
async function opened(firstSeq = 0, cursor = 3, options: Parameters<typeof setup>[0] = {}) {
  const context = setup(options);
  const following = context.follower.follow('s', { interactive: true });
  context.transport
    .take('session.follow')
    .resolve(snapshotOf({ followId: 'f1', generation: 1, firstSeq, cursor }));
  await following;
  return context;
}

describe('SessionFollower: opening', () => {
  it('asks session.follow and shows the snapshot once accepted; the baseline goes to the store', async () => {
    const { transport, store, follower } = setup();
    const following = follower.follow('s', { interactive: true });
    expect(follower.view.phase).toBe('opening');
    const call = transport.take('session.follow');
    expect(call.params).toEqual({ id: 's', interactive: true });
    call.resolve(
      snapshotOf({ followId: 'f1', generation: 1, firstSeq: 2, cursor: 5, values: { title: 'T' } }),
    );
    await following;
    expect(follower.view).toMatchObject({ sessionId: 's', phase: 'following', error: null });
    expect(follower.view.shown).toMatchObject({ followId: 'f1', generation: 1, firstSeq: 2, cursor: 5 });
    expect(seqs(follower)).toEqual([2, 3, 4]);
    expect(store.get('s', 'title')).toEqual({ known: true, value: 'T', seq: 4 });
  });

  it('buffers frames dispatched before the snapshot result is processed and applies them after, in order', async () => {
    const { transport, store, follower } = setup();
    const following = follower.follow('s');
    // The result settles, but its continuation runs only after these synchronous dispatches:
    // exactly what a socket delivering [result, frame, frame] in one chunk does.
    transport
      .take('session.follow')
      .resolve(snapshotOf({ followId: 'f1', generation: 1, firstSeq: 0, cursor: 2 }));
    transport.events('f1', 1, evs(2, 4));
    transport.notify('follow.projection', {
      followId: 'f1',
      generation: 1,
      key: 'title',
      value: 'late',
      seq: 3,
    });
    transport.events('f1', 1, evs(4, 5));
    expect(follower.view.shown).toBeNull();
    await following;
    await drain();
    expect(seqs(follower)).toEqual([0, 1, 2, 3, 4]);
    expect(store.get('s', 'title')).toEqual({ known: true, value: 'late', seq: 3 });
  });

  it('buffers frames that even precede the result (no dependence on the host ordering)', async () => {
    const { transport, follower } = setup();
    const following = follower.follow('s');
    const call = transport.take('session.follow');
    transport.events('f1', 1, evs(3, 4));
    call.resolve(snapshotOf({ followId: 'f1', generation: 1, firstSeq: 0, cursor: 3 }));
    await following;
    await drain();
    expect(seqs(follower)).toEqual([0, 1, 2, 3]);
  });

  it('drops buffered frames of other follows when the snapshot names its follow id', async () => {
    const { transport, follower } = setup();
    const following = follower.follow('s');
    transport.events('f9', 1, [ev(3)]);
    transport
      .take('session.follow')
      .resolve(snapshotOf({ followId: 'f1', generation: 1, firstSeq: 0, cursor: 3 }));
    await following;
    await drain();
    expect(seqs(follower)).toEqual([0, 1, 2]);
  });

  it('a host error on the first follow rejects follow() and leaves the follower idle', async () => {
    const { transport, follower } = setup();
    const following = follower.follow('missing');
    const error = new StrandRpcError('SESSION_QUERY_NOT_FOUND', -32020, 'no such session');
    transport.take('session.follow').reject(error);
    await expect(following).rejects.toBe(error);
    expect(follower.view).toMatchObject({ phase: 'idle', shown: null, error });
  });

  it('an invalid first snapshot rejects with CLIENT_SNAPSHOT_INVALID', async () => {
    const { transport, follower } = setup();
    const following = follower.follow('s');
    transport
      .take('session.follow')
      .resolve(snapshotOf({ followId: 'f1', generation: 1, firstSeq: 0, cursor: 3, id: 'other' }));
    const error: unknown = await following.catch((caught: unknown) => caught);
    expect(isStrandClientError(error, 'CLIENT_SNAPSHOT_INVALID')).toBe(true);
  });

  it('refuses a second follow while one is active', async () => {
    const { follower } = await opened();
    const error: unknown = await follower.follow('t').catch((caught: unknown) => caught);
    expect(isStrandClientError(error, 'CLIENT_FOLLOW_ACTIVE')).toBe(true);
  });

  it('waits for the connection to open, and a disconnect before the first snapshot is retried on the next socket', async () => {
    const transport = new ScriptedTransport();
    transport.state = 'connecting';
    const follower = new SessionFollower({ connection: transport, store: new ProjectionStore() });
    const following = follower.follow('s');
    expect(transport.has('session.follow')).toBe(false);
    transport.setState('open');
    const lost = transport.take('session.follow');
    transport.setState('reconnecting');
    lost.reject(new StrandClientError('CLIENT_DISCONNECTED', 'gone'));
    transport.setState('open');
    transport
      .take('session.follow')
      .resolve(snapshotOf({ followId: 'f2', generation: 2, firstSeq: 0, cursor: 1 }));
    await following;
    expect(follower.view.shown?.followId).toBe('f2');
  });

  it('a closed connection rejects follow with CLIENT_CLOSED', async () => {
    const { transport, follower } = setup();
    const following = follower.follow('s');
    transport.setState('closed');
    const error: unknown = await following.catch((caught: unknown) => caught);
    expect(isStrandClientError(error, 'CLIENT_CLOSED')).toBe(true);
  });
});

describe('SessionFollower: live frames', () => {
  it('appends contiguous events and drops duplicates', async () => {
    const { transport, follower } = await opened(0, 3);
    transport.events('f1', 1, evs(2, 5));
    transport.events('f1', 1, evs(3, 4));
    await drain();
    expect(seqs(follower)).toEqual([0, 1, 2, 3, 4]);
    expect(follower.view.shown?.cursor).toBe(5);
  });

  it('repairs a gap with session.page before applying later frames', async () => {
    const { transport, follower } = await opened(0, 3);
    transport.events('f1', 1, evs(6, 7));
    transport.events('f1', 1, evs(7, 8));
    await drain();
    const page = transport.take('session.page');
    expect(page.params).toEqual({ id: 's', fromSeq: 3, toSeq: 6, limit: 500 });
    expect(seqs(follower)).toEqual([0, 1, 2]); // the later frame waits behind the repair
    page.resolve({ firstSeq: 3, events: evs(3, 6), cursor: 8 });
    await drain();
    expect(seqs(follower)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('pages as many times as the host limit needs', async () => {
    const { transport, follower } = await opened(0, 1);
    transport.events('f1', 1, evs(5, 6));
    await drain();
    transport.take('session.page').resolve({ firstSeq: 1, events: evs(1, 3), cursor: 6 });
    await drain();
    const second = transport.take('session.page');
    expect(second.params).toMatchObject({ fromSeq: 3, toSeq: 5 });
    second.resolve({ firstSeq: 3, events: evs(3, 5), cursor: 6 });
    await drain();
    expect(seqs(follower)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a page that does not continue the window re-opens a generation', async () => {
    const { transport, follower } = await opened(0, 1);
    transport.events('f1', 1, evs(5, 6));
    await drain();
    transport.take('session.page').resolve({ firstSeq: 1, events: [], cursor: 6 });
    await drain();
    expect(transport.has('session.follow')).toBe(true);
    expect(isStrandClientError(follower.view.error, 'CLIENT_PAGE_INVALID')).toBe(true);
    expect(follower.view.phase).toBe('refollowing');
  });

  it('a live batch that is not contiguous keeps what is shown and re-opens a generation', async () => {
    const { transport, follower } = await opened(0, 2);
    transport.events('f1', 1, [ev(2), ev(4)]);
    await drain();
    expect(seqs(follower)).toEqual([0, 1]);
    expect(transport.has('session.follow')).toBe(true);
    expect(isStrandClientError(follower.view.error, 'CLIENT_PAGE_INVALID')).toBe(true);
    expect(follower.view.phase).toBe('refollowing');
  });

  it('projection frames go to the store; state frames update live and busy', async () => {
    const { transport, store, follower } = await opened(0, 3);
    transport.notify('follow.projection', {
      followId: 'f1',
      generation: 1,
      key: 'title',
      value: null,
      seq: 2,
    });
    transport.notify('follow.state', { followId: 'f1', generation: 1, live: false, busy: true });
    await drain();
    expect(store.get('s', 'title')).toEqual({ known: true, value: null, seq: 2 });
    expect(follower.view.shown).toMatchObject({ live: false, busy: true });
  });

  it('a stop lasts as long as the host says so: through the frame that says the session went cold, until a frame without it', async () => {
    const { transport, follower } = await opened(0, 3);
    const stopped = { code: 'SESSION_WRITE_FAILED', message: 'write failed (EIO)' };
    const state = (live: boolean, withStop: boolean): void =>
      transport.notify('follow.state', {
        followId: 'f1',
        generation: 1,
        live,
        busy: false,
        ...(withStop ? { stopped } : {}),
      });
    state(true, true);
    await drain();
    expect(follower.view.shown?.stopped).toEqual(stopped);
    state(false, true);
    await drain();
    expect(follower.view.shown).toMatchObject({ live: false, stopped });
    // Reopened from disk by the next command: the host's frame no longer carries it.
    state(true, false);
    await drain();
    expect(follower.view.shown?.live).toBe(true);
    expect(follower.view.shown?.stopped).toBeUndefined();
  });

  it('notifies subscribers with a new view object per change', async () => {
    const { transport, follower } = await opened(0, 1);
    const views: unknown[] = [];
    follower.subscribe((view) => views.push(view));
    transport.events('f1', 1, [ev(1)]);
    await drain();
    expect(views).toHaveLength(1);
    expect(views[0]).toBe(follower.view);
  });
});

describe('SessionFollower: generations', () => {
  it('keeps the previous generation shown until the new snapshot is accepted after a reconnect', async () => {
    const { transport, follower } = await opened(0, 3);
    transport.setState('reconnecting');
    expect(follower.view.phase).toBe('refollowing');
    transport.setState('open');
    const refollow = transport.take('session.follow');
    transport.events('f7', 4, evs(5, 6)); // the new generation's frame, before its snapshot
    await drain();
    expect(follower.view.phase).toBe('refollowing');
    expect(seqs(follower)).toEqual([0, 1, 2]);
    refollow.resolve(snapshotOf({ followId: 'f7', generation: 4, firstSeq: 2, cursor: 5 }));
    await drain();
    expect(follower.view.phase).toBe('following');
    expect(follower.view.shown).toMatchObject({ followId: 'f7', generation: 4 });
    expect(seqs(follower)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('ignores frames of an older generation once a new one is accepted', async () => {
    const { transport, follower } = await opened(0, 3);
    transport.notify('follow.resync', { followId: 'f1', generation: 1, reason: 'behind' });
    await drain();
    transport
      .take('session.follow')
      .resolve(snapshotOf({ followId: 'f2', generation: 2, firstSeq: 0, cursor: 4 }));
    await drain();
    transport.events('f1', 1, evs(4, 6));
    transport.notify('follow.state', { followId: 'f1', generation: 1, live: false, busy: true });
    await drain();
    expect(seqs(follower)).toEqual([0, 1, 2, 3]);
    expect(follower.view.shown?.live).toBe(true);
    // The replaced follow is released on the host.
    expect(transport.take('session.unfollow').params).toEqual({ followId: 'f1' });
  });

  it('ignores frames from the previous socket even if its follow id is reused', async () => {
    const { transport, store, follower } = await opened(0, 3);
    transport.setState('reconnecting');
    transport.setState('open');
    // A restarted host may hand out f1/1 again: on the new socket it is not the shown carrier.
    transport.notify('follow.projection', {
      followId: 'f1',
      generation: 1,
      key: 'title',
      value: 'other',
      seq: 50,
    });
    await drain();
    expect(store.get('s', 'title')).toEqual({ known: false });
    transport
      .take('session.follow')
      .resolve(snapshotOf({ followId: 'f2', generation: 1, firstSeq: 0, cursor: 3 }));
    await drain();
    expect(store.get('s', 'title')).toEqual({ known: false });
    expect(seqs(follower)).toEqual([0, 1, 2]);
  });

  it('an invalid snapshot on re-follow keeps the previous generation shown and reports the error', async () => {
    const { transport, follower } = await opened(0, 3);
    transport.notify('follow.resync', { followId: 'f1', generation: 1, reason: 'behind' });
    await drain();
    const bad = { ...snapshotOf({ followId: 'f2', generation: 2, firstSeq: 0, cursor: 4 }), cursor: 9 };
    transport.take('session.follow').resolve(bad);
    await drain();
    expect(follower.view.phase).toBe('failed');
    expect(isStrandClientError(follower.view.error, 'CLIENT_SNAPSHOT_INVALID')).toBe(true);
    expect(follower.view.shown?.followId).toBe('f1');
    follower.refollow();
    expect(transport.has('session.follow')).toBe(true);
  });

  it('fills a small hole between the previous window and a new snapshot by paging, keeping older events', async () => {
    const { transport, follower } = await opened(0, 3);
    transport.setState('reconnecting');
    transport.setState('open');
    transport
      .take('session.follow')
      .resolve(snapshotOf({ followId: 'f2', generation: 2, firstSeq: 6, cursor: 8 }));
    await drain();
    expect(follower.view.phase).toBe('refollowing'); // not accepted while the hole is being filled
    const page = transport.take('session.page');
    expect(page.params).toMatchObject({ fromSeq: 3, toSeq: 6 });
    page.resolve({ firstSeq: 3, events: evs(3, 6), cursor: 8 });
    await drain();
    expect(follower.view.phase).toBe('following');
    expect(seqs(follower)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('replaces the window when the hole is larger than maxGapFill', async () => {
    const { transport, follower } = await opened(0, 3, { maxGapFill: 2 });
    transport.setState('reconnecting');
    transport.setState('open');
    transport
      .take('session.follow')
      .resolve(snapshotOf({ followId: 'f2', generation: 2, firstSeq: 6, cursor: 8 }));
    await drain();
    expect(transport.has('session.page')).toBe(false);
    expect(follower.view.shown).toMatchObject({ firstSeq: 6, cursor: 8 });
  });

  it('a session recreated under the same id replaces the window and forgets the old projection rows', async () => {
    const { transport, store, follower } = await opened(0, 9);
    store.applyFrame('s', { key: 'title', value: 'old log', seq: 8 });
    transport.notify('follow.resync', { followId: 'f1', generation: 1, reason: 'recreated' });
    await drain();
    transport.take('session.follow').resolve(
      snapshotOf({
        followId: 'f2',
        generation: 2,
        firstSeq: 0,
        cursor: 2,
        createdAt: 99,
        values: { title: 'new log' },
      }),
    );
    await drain();
    expect(seqs(follower)).toEqual([0, 1]);
    expect(store.get('s', 'title')).toEqual({ known: true, value: 'new log', seq: 1 });
  });

  it('too many frames before a snapshot re-opens the generation after accepting it', async () => {
    const { transport, follower } = setup({ maxBufferedFrames: 2 });
    const following = follower.follow('s');
    const call = transport.take('session.follow');
    for (let seq = 3; seq < 7; seq += 1) transport.events('f1', 1, [ev(seq)]);
    call.resolve(snapshotOf({ followId: 'f1', generation: 1, firstSeq: 0, cursor: 3 }));
    await following;
    await drain();
    expect(transport.has('session.follow')).toBe(true);
  });

  it('a later host error on re-follow keeps the shown generation and marks the view failed', async () => {
    const { transport, follower } = await opened(0, 3);
    transport.setState('reconnecting');
    transport.setState('open');
    transport
      .take('session.follow')
      .reject(new StrandRpcError('SESSION_QUERY_PERSISTENCE_FAILED', -32024, 'disk'));
    await drain();
    expect(follower.view).toMatchObject({ phase: 'failed', shown: { followId: 'f1' } });
  });
});

describe('SessionFollower: older history and unfollow', () => {
  it('loadOlder pages before the window and prepends', async () => {
    const { transport, follower } = await opened(5, 7);
    const loading = follower.loadOlder(3);
    const page = transport.take('session.page');
    expect(page.params).toEqual({ id: 's', beforeSeq: 5, limit: 3 });
    page.resolve({ firstSeq: 2, events: evs(2, 5), cursor: 7 });
    await expect(loading).resolves.toEqual({ kind: 'loaded', count: 3 });
    expect(seqs(follower)).toEqual([2, 3, 4, 5, 6]);
  });

  it('loadOlder at seq 0 is complete without a call', async () => {
    const { transport, follower } = await opened(0, 3);
    await expect(follower.loadOlder(10)).resolves.toEqual({ kind: 'complete' });
    expect(transport.has('session.page')).toBe(false);
  });

  it('loadOlder refuses a page that does not join the window', async () => {
    const { transport, follower } = await opened(5, 7);
    const loading = follower.loadOlder(3);
    transport.take('session.page').resolve({ firstSeq: 0, events: evs(0, 2), cursor: 7 });
    const error: unknown = await loading.catch((caught: unknown) => caught);
    expect(isStrandClientError(error, 'CLIENT_PAGE_INVALID')).toBe(true);
  });

  it('loadOlder without a shown generation is CLIENT_NOT_FOLLOWING', async () => {
    const { follower } = setup();
    const error: unknown = await follower.loadOlder(3).catch((caught: unknown) => caught);
    expect(isStrandClientError(error, 'CLIENT_NOT_FOLLOWING')).toBe(true);
  });

  it('unfollow releases the follow on the host and ignores later frames', async () => {
    const { transport, follower } = await opened(0, 3);
    const stopping = follower.unfollow();
    transport.take('session.unfollow').resolve({ ok: true });
    await stopping;
    transport.events('f1', 1, [ev(3)]);
    await drain();
    expect(follower.view).toMatchObject({ phase: 'idle', shown: null, sessionId: null });
  });

  it('a snapshot that arrives after unfollow is released, not shown', async () => {
    const { transport, follower } = setup();
    const following = follower.follow('s');
    const call = transport.take('session.follow');
    await follower.unfollow();
    await expect(following).rejects.toMatchObject({ code: 'CLIENT_NOT_FOLLOWING' });
    call.resolve(snapshotOf({ followId: 'f1', generation: 1, firstSeq: 0, cursor: 1 }));
    await drain();
    expect(transport.take('session.unfollow').params).toEqual({ followId: 'f1' });
    expect(follower.view.shown).toBeNull();
  });
});
