/**
 * One behaviour suite of the client over the wire, run against every host that claims to speak
 * it: the scripted `FakeHost` (packages/client) and the real host composed by
 * `@strand/runtime/testing` (packages/cli/src/client-wire.int.test.ts). Whatever the fake gets
 * wrong about the real host fails here first, so the fake cannot drift.
 *
 * Every wait is on an event (a view change, a socket's open or close), never on a clock.
 * Test-only: it runs in Node, on real `ws` WebSockets.
 */
import { StrandRpcError } from '@strand/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { StrandConnection } from '../connection/strand-connection.js';
import type { WebSocketConstructor } from '../connection/web-socket-like.js';
import { SessionFollower } from '../follow/session-follower.js';
import { ProjectionStore } from '../projection-store/projection-store.js';
import { untilStore, untilView } from './waits.js';

/** What the suite needs of a host: its URL and a way to write logs it serves. */
export interface WireHost {
  readonly url: string;
  /** A live session whose log holds exactly `eventCount` (≥ 1) events. */
  createSession(id: string, eventCount: number): Promise<void>;
  /** Appends `count` events to the live session `id`; the host sends them to its followers. */
  append(id: string, count: number): Promise<void>;
  /** Renames the live session `id`: one event, whose seq the `title` projection then carries. */
  rename(id: string, title: string): Promise<void>;
  /** The length of the log of `id` as the host holds it. */
  eventCount(id: string): number;
  close(): Promise<void>;
}

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from }, (_, index) => from + index);

const seqs = (follower: SessionFollower): number[] =>
  follower.view.shown?.events.map((event) => event.seq) ?? [];

/** Sockets a connection created, so a test can cut one from the client side, as a network failure would. */
function recordingWebSocket(sockets: WebSocket[]): WebSocketConstructor {
  return class RecordedWebSocket extends WebSocket {
    constructor(url: string) {
      super(url);
      sockets.push(this);
    }
  };
}

export function describeWireSuite(name: string, start: () => Promise<WireHost>): void {
  describe(`client wire behaviour against ${name}`, () => {
    let host: WireHost;
    let counter = 0;
    const cleanups: (() => Promise<void> | void)[] = [];

    beforeAll(async () => {
      host = await start();
    });
    afterAll(async () => {
      await host.close();
    });
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    function client(options: { window?: number } = {}) {
      const sockets: WebSocket[] = [];
      const connection = new StrandConnection({
        url: host.url,
        WebSocket: recordingWebSocket(sockets),
        backoff: { initialMs: 5, maxMs: 20 },
      });
      const store = new ProjectionStore();
      const follower = new SessionFollower({ connection, store, ...options });
      cleanups.push(() => connection.close());
      cleanups.push(() => follower.unfollow());
      return { connection, store, follower, sockets };
    }

    async function newSession(eventCount: number): Promise<string> {
      // Unique per suite run and test, so the tests share one host in any order.
      const id = `wire-${name.replace(/\W+/g, '-')}-${++counter}`;
      await host.createSession(id, eventCount);
      return id;
    }

    /** Waits (on view changes) until `follower` shows the whole log of `id`, then checks every seq once, in order. */
    async function converged(follower: SessionFollower, id: string, from = 0): Promise<void> {
      const length = host.eventCount(id);
      await untilView(follower, (view) => view.shown !== null && view.shown.cursor >= length);
      await follower.settled();
      expect(follower.view.shown?.cursor).toBe(length);
      expect(seqs(follower)).toEqual(range(from, length));
    }

    it('opens with the tail window and the baseline at cursor − 1, then applies live events', async () => {
      const id = await newSession(8);
      const { follower, store } = client({ window: 5 });
      await follower.follow(id);
      expect(follower.view).toMatchObject({ sessionId: id, phase: 'following', error: null });
      expect(follower.view.shown).toMatchObject({ firstSeq: 3, cursor: 8, live: true });
      expect(seqs(follower)).toEqual(range(3, 8));
      for (const row of store.rows(id).values()) expect(row.seq).toBeLessThanOrEqual(7);
      await host.append(id, 4);
      await converged(follower, id, 3);
    });

    it('a rename reaches the projection store as the title row at its event seq', async () => {
      const id = await newSession(3);
      const { follower, store } = client({ window: 50 });
      await follower.follow(id);
      const titled = untilStore(store, id, () => store.get(id, 'title'), { known: true, value: 'Renamed' });
      await host.rename(id, 'Renamed');
      await titled;
      expect(store.get(id, 'title')).toEqual({ known: true, value: 'Renamed', seq: host.eventCount(id) - 1 });
      await converged(follower, id);
    });

    it('applies events appended while the follow is in flight: none lost, none twice', async () => {
      const id = await newSession(2);
      const { follower } = client({ window: 50 });
      const following = follower.follow(id);
      await host.append(id, 3);
      await following;
      await host.append(id, 1);
      await converged(follower, id);
    });

    it('a socket cut from the client side: the shown generation stays shown, a new one is accepted and joined', async () => {
      const id = await newSession(4);
      const { follower, sockets } = client({ window: 4 });
      await follower.follow(id);
      const before = follower.view.shown!;
      const phases: string[] = [];
      const shownAll: boolean[] = [];
      follower.subscribe((view) => {
        phases.push(view.phase);
        shownAll.push(view.shown !== null);
      });
      const closed = new Promise<void>((resolve) => sockets[0]!.once('close', () => resolve()));
      sockets[0]!.terminate();
      await closed;
      // Appended while the client is away: more than the window, so the hole is paged in.
      await host.append(id, 9);
      await untilView(
        follower,
        (view) => view.phase === 'following' && view.shown!.followId !== before.followId,
      );
      await converged(follower, id);
      expect(phases).toContain('refollowing');
      expect(phases).not.toContain('opening');
      expect(shownAll.every(Boolean)).toBe(true);
      await host.append(id, 2);
      await converged(follower, id);
    });

    it("two followers on one connection never see each other's frames", async () => {
      const a = await newSession(2);
      const b = await newSession(5);
      const { connection, store, follower } = client({ window: 50 });
      const other = new SessionFollower({ connection, store, window: 50 });
      cleanups.push(() => other.unfollow());
      await Promise.all([follower.follow(a), other.follow(b)]);
      await host.append(a, 3);
      await host.append(b, 1);
      await converged(follower, a);
      await converged(other, b);
      const titled = untilStore(store, b, () => store.get(b, 'title'), { known: true, value: 'only b' });
      await host.rename(b, 'only b');
      await titled;
      await follower.settled();
      expect(store.get(a, 'title')).not.toMatchObject({ value: 'only b' });
      await converged(follower, a);
    });

    it('loadOlder pages history in before the tail window, then reports complete', async () => {
      const id = await newSession(20);
      const { follower } = client({ window: 4 });
      await follower.follow(id);
      expect(follower.view.shown).toMatchObject({ firstSeq: 16, cursor: 20 });
      await expect(follower.loadOlder(10)).resolves.toEqual({ kind: 'loaded', count: 10 });
      await expect(follower.loadOlder(10)).resolves.toEqual({ kind: 'loaded', count: 6 });
      await expect(follower.loadOlder(10)).resolves.toEqual({ kind: 'complete' });
      expect(seqs(follower)).toEqual(range(0, 20));
    });

    it('a follow of a missing session rejects with the typed host error; the follower is idle', async () => {
      const { follower } = client();
      const error: unknown = await follower.follow('wire-missing').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StrandRpcError);
      expect(error).toMatchObject({ code: 'SESSION_QUERY_NOT_FOUND', rpcCode: -32020 });
      expect(follower.view.phase).toBe('idle');
    });

    it('unfollow releases the follow on the host: its id is unknown there afterwards', async () => {
      const id = await newSession(1);
      const { connection, follower } = client();
      await follower.follow(id);
      const followId = follower.view.shown!.followId;
      await follower.unfollow();
      expect(follower.view.phase).toBe('idle');
      await expect(connection.call('session.unfollow', { followId })).rejects.toMatchObject({
        code: 'HOST_FOLLOW_NOT_FOUND',
      });
    });
  });
}
