import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { StrandConnection } from '../connection/strand-connection.js';
import { ProjectionStore } from '../projection-store/projection-store.js';
import { FakeHost } from '../test/fake-host.js';
import { untilView } from '../testing/waits.js';
import { SessionFollower } from './session-follower.js';

let host: FakeHost;
let sessionCounter = 0;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  host = await FakeHost.start();
});

afterAll(async () => {
  await host.close();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  host.holdFollows = false;
  host.afterSnapshot = null;
});

function client(options: { window?: number } = {}) {
  const connection = new StrandConnection({
    url: host.url,
    WebSocket,
    backoff: { initialMs: 10, maxMs: 40 },
  });
  const store = new ProjectionStore();
  const follower = new SessionFollower({ connection, store, ...options });
  cleanups.push(() => connection.close());
  cleanups.push(() => follower.unfollow());
  return { connection, store, follower };
}

function newSession(eventCount: number): string {
  const id = `s${++sessionCounter}`;
  host.addSession(id, eventCount);
  return id;
}

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from }, (_, index) => from + index);
const seqs = (follower: SessionFollower): number[] =>
  follower.view.shown?.events.map((event) => event.seq) ?? [];

/** Waits until the follower shows exactly the whole log of `id`: every seq once, in order. */
async function convergedToLog(follower: SessionFollower, id: string): Promise<void> {
  const length = host.sessions.get(id)!.events.length;
  await untilView(follower, (view) => view.shown !== null && view.shown.cursor >= length);
  await follower.settled();
  const shown = follower.view.shown!;
  expect(seqs(follower)).toEqual(range(shown.firstSeq, length));
}

// The behaviour every host shares (two followers, loadOlder, a missing session, unfollow, ...) is
// the wire suite (src/testing/wire-suite.ts), run against this fake and the real host; here are
// the cases only a scripted host can stage (held follows, forged frames, resync, dropped frames).
describe('SessionFollower against a scripted host on a real WebSocket', () => {
  it('opens with the snapshot (the tail window and the baseline), then applies live frames', async () => {
    const id = newSession(8);
    host.sessions.get(id)!.projections.set('title', { value: 'hello', seq: 7 });
    const { follower, store } = client();
    await follower.follow(id, { interactive: true });
    expect(host.requests.at(-1)).toEqual({ method: 'session.follow', params: { id, interactive: true } });
    expect(follower.view.shown).toMatchObject({
      firstSeq: 3,
      cursor: 8,
      generation: expect.any(Number) as number,
    });
    expect(store.get(id, 'title')).toEqual({ known: true, value: 'hello', seq: 7 });
    host.append(id, 4);
    host.setProjection(id, 'title', null);
    host.setState(id, true, true);
    await convergedToLog(follower, id);
    expect(seqs(follower)).toEqual(range(3, 12));
    // The state frame was sent after the projection frame, on the same socket: once it shows, both applied.
    await untilView(follower, (view) => view.shown?.busy === true);
    expect(store.get(id, 'title')).toEqual({ known: true, value: null, seq: 11 });
  });

  it('applies frames the host sends in the same tick as the snapshot result', async () => {
    const id = newSession(2);
    host.afterSnapshot = (followed) => {
      if (followed.sessionId === id) host.append(id, 3);
    };
    const { follower } = client();
    await follower.follow(id);
    await convergedToLog(follower, id);
    expect(seqs(follower)).toEqual(range(0, 5));
  });

  it('reconnect: the previous generation stays shown until the new snapshot, then converges with no lost or duplicated seq', async () => {
    const id = newSession(4);
    const { follower, connection } = client();
    await follower.follow(id);
    host.append(id, 3);
    await convergedToLog(follower, id);
    const before = follower.view.shown!;

    host.holdFollows = true;
    host.dropAll();
    host.append(id, 12); // appended during the gap: more than the snapshot window
    const isFollow = (r: { method: string; params: Record<string, unknown> }): boolean =>
      r.method === 'session.follow' && r.params.id === id;
    await host.untilRequests(isFollow, 2);
    expect(host.requests.filter(isFollow)).toHaveLength(2);
    expect(connection.state).toBe('open');
    expect(follower.view.phase).toBe('refollowing');
    expect(follower.view.shown).toBe(before);

    host.releaseFollows();
    await convergedToLog(follower, id);
    expect(follower.view.phase).toBe('following');
    expect(follower.view.shown!.generation).toBeGreaterThan(before.generation);
    expect(seqs(follower)).toEqual(range(0, 19)); // the hole was paged in: the old window is kept
    host.append(id, 2);
    await convergedToLog(follower, id);
    expect(seqs(follower)).toEqual(range(0, 21));
  });

  it('ignores frames of an older generation after a reconnect', async () => {
    const id = newSession(3);
    const { follower, store } = client();
    await follower.follow(id);
    const old = follower.view.shown!;
    host.dropAll();
    await untilView(follower, (view) => view.shown !== null && view.shown.generation !== old.generation);
    host.sendToAll({
      jsonrpc: '2.0',
      method: 'follow.projection',
      params: { followId: old.followId, generation: old.generation, key: 'title', value: 'stale', seq: 99 },
    });
    host.append(id, 1);
    await convergedToLog(follower, id);
    expect(store.get(id, 'title')).toEqual({ known: false });
  });

  it('onSubagents: once per accepted generation, then per follow.subagents frame of the shown one, after the frames before it', async () => {
    const id = newSession(2);
    const other = newSession(1);
    const { follower } = client();
    const { follower: otherFollower } = client();
    const heard: { sessionId: string; cursor: number | undefined }[] = [];
    follower.onSubagents((sessionId) => heard.push({ sessionId, cursor: follower.view.shown?.cursor }));
    let otherHeard = 0;
    otherFollower.onSubagents(() => otherHeard++);
    await follower.follow(id);
    await otherFollower.follow(other);
    expect(heard).toEqual([{ sessionId: id, cursor: 2 }]);
    const untilHeard = (count: number): Promise<void> =>
      new Promise((resolve) => {
        if (heard.length >= count) return resolve();
        const off = follower.onSubagents(() => {
          if (heard.length < count) return;
          off();
          resolve();
        });
      });

    host.append(id, 3);
    host.subagentsChanged(id);
    await untilHeard(2);
    // In order: the events sent before the notification were applied when it was heard.
    expect(heard[1]).toEqual({ sessionId: id, cursor: 5 });

    const old = follower.view.shown!;
    host.resync(id);
    await untilView(follower, (view) => view.shown !== null && view.shown.generation !== old.generation);
    expect(heard).toHaveLength(3); // the new generation: changes in between went unannounced
    host.sendToAll({
      jsonrpc: '2.0',
      method: 'follow.subagents',
      params: { followId: old.followId, generation: old.generation },
    });
    host.subagentsChanged(id);
    await untilHeard(4);
    await follower.settled();
    expect(heard).toHaveLength(4); // the old generation's frame was ignored
    expect(otherHeard).toBe(1); // only its own generation's acceptance
  });

  it('follow.resync opens a new generation and keeps converging', async () => {
    const id = newSession(3);
    const { follower } = client();
    await follower.follow(id);
    const first = follower.view.shown!;
    host.resync(id);
    host.append(id, 2); // the old generation is gone on the host: these reach the client via the new snapshot
    await untilView(follower, (view) => view.shown !== null && view.shown.generation !== first.generation);
    host.append(id, 2);
    await convergedToLog(follower, id);
    expect(seqs(follower)).toEqual(range(0, 7));
  });

  it('gap repair: with random frame drops on the host, the follower converges to the full log', async () => {
    const repairs = (): number =>
      host.requests.filter((r) => r.method === 'session.page' && r.params.fromSeq !== undefined).length;
    const repairsBefore = repairs();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 48, maxLength: 48 }),
        async (batches, dropMask) => {
          const id = newSession(3);
          const { follower, connection } = client({ window: 10 });
          await follower.follow(id);
          const total = 3 + batches.reduce((sum, size) => sum + size, 0);
          for (const size of batches) {
            // The last event is always delivered: only a later frame can reveal an earlier loss.
            host.append(id, size, (seq) => seq !== total - 1 && (dropMask[seq] ?? false));
          }
          await convergedToLog(follower, id);
          expect(seqs(follower)).toEqual(range(0, total));
          await follower.unfollow();
          connection.close();
        },
      ),
      { numRuns: 12 },
    );
    expect(repairs()).toBeGreaterThan(repairsBefore); // drops happened and were repaired by page
  });
});
