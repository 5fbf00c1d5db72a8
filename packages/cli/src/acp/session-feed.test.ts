import fc from 'fast-check';
import type { ConnectionState, IncomingNotification } from '@strand/client';
import type { MethodName, ParamsOf, ResultOf, WireEvent } from '@strand/protocol';
import { describe, expect, it } from 'vitest';
import { SessionFeed, type FeedConnection } from './session-feed.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A scripted host: a log that grows as the test appends, follow snapshots with a small tail
 * window, pages capped at a few events, and frames the test pushes — contiguous, overlapping,
 * with gaps, early (before the follow result is processed), stale (an old follow id) — plus
 * resyncs and reconnects. Calls answer on a later macrotask, as a socket would.
 */
class ScriptedHost implements FeedConnection {
  state: ConnectionState = 'open';
  cursor = 0;
  followId = '';
  /** The next seq the current follow's frames start at (the hub's `nextSeq`). */
  next = 0;
  /** Events each new follow sends as a frame before its result is processed. */
  early = 0;
  readonly #log: WireEvent[];
  readonly #window: number;
  readonly #pageCap: number;
  #follows = 0;
  readonly #notify = new Set<(n: IncomingNotification) => void>();
  readonly #states = new Set<(s: ConnectionState) => void>();

  constructor(length: number, window: number, pageCap: number) {
    this.#log = Array.from({ length }, (_, seq) => ({ type: 'x/y', seq, time: seq, data: { seq } }));
    this.#window = window;
    this.#pageCap = pageCap;
  }

  get length(): number {
    return this.#log.length;
  }

  async call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    await tick();
    if (method === 'session.follow') {
      this.followId = `f${++this.#follows}`;
      this.next = this.cursor;
      const firstSeq = Math.max(0, this.cursor - this.#window);
      const snapshotCursor = this.cursor;
      const snapshotEvents = this.#log.slice(firstSeq, snapshotCursor);
      // The socket delivers the follow's first frames before the result's continuation runs.
      if (this.early > 0) this.frame(this.early, 0);
      return {
        followId: this.followId,
        generation: this.#follows,
        header: {},
        inheritedEventCount: 0,
        cursor: snapshotCursor,
        firstSeq,
        events: snapshotEvents,
        baseline: { asOfSeq: snapshotCursor - 1, values: {} },
        live: true,
        busy: false,
      } as unknown as ResultOf<M>;
    }
    if (method === 'session.page') {
      const { fromSeq = 0, toSeq = this.cursor, limit = 200 } = params as ParamsOf<'session.page'>;
      const end = Math.min(toSeq, fromSeq + Math.min(limit, this.#pageCap), this.cursor);
      return { firstSeq: fromSeq, events: this.#log.slice(fromSeq, end), cursor: this.cursor } as ResultOf<M>;
    }
    return { ok: true } as ResultOf<M>;
  }

  onNotification(listener: (n: IncomingNotification) => void): () => void {
    this.#notify.add(listener);
    return () => this.#notify.delete(listener);
  }

  onStateChange(listener: (s: ConnectionState) => void): () => void {
    this.#states.add(listener);
    return () => this.#states.delete(listener);
  }

  /** Appends `count` events and sends them from `next + skip` (a skip is a gap the feed must page). */
  frame(count: number, skip: number, followId = this.followId): void {
    const cursor = Math.min(this.#log.length, Math.max(this.cursor, this.next + skip + count));
    const events = this.#log.slice(this.next + skip, cursor);
    // The hub never appends without sending (it resyncs a follower instead): no frame, no append.
    if (events.length === 0) return;
    this.cursor = cursor;
    this.next = this.cursor;
    this.emit('follow.events', { followId, generation: 0, events });
  }

  emit(method: string, params: unknown): void {
    for (const listener of this.#notify) listener({ method, params, epoch: 1 });
  }

  reconnect(): void {
    for (const listener of this.#states) listener('open');
  }
}

type Action =
  | { kind: 'frame'; count: number; skip: number }
  | { kind: 'stale'; count: number }
  | { kind: 'resync' }
  | { kind: 'reconnect' }
  | { kind: 'wait' };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant('frame' as const),
    count: fc.integer({ min: 1, max: 6 }),
    skip: fc.constantFrom(0, 0, 0, 2),
  }),
  fc.record({ kind: fc.constant('stale' as const), count: fc.integer({ min: 1, max: 3 }) }),
  fc.constant({ kind: 'resync' as const }),
  fc.constant({ kind: 'reconnect' as const }),
  fc.constant({ kind: 'wait' as const }),
);

describe('SessionFeed (every event once, in seq order, whatever the wire does)', () => {
  it('delivers exactly [fromSeq, end) across pages, gaps, overlaps, early and stale frames, resyncs, reconnects', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 2 }),
        fc.array(action, { maxLength: 25 }),
        async (initial, more, window, pageCap, early, actions) => {
          const host = new ScriptedHost(initial + more, window, pageCap);
          host.cursor = initial;
          host.early = early;
          const delivered: number[] = [];
          const errors: unknown[] = [];
          const opening = SessionFeed.open(
            host,
            's',
            0,
            (e) => delivered.push(e.seq),
            (e) => errors.push(e),
          );
          const feed = await opening;
          for (const step of actions) {
            if (step.kind === 'frame') host.frame(step.count, step.skip);
            else if (step.kind === 'stale')
              host.emit('follow.events', { followId: 'old', generation: 0, events: [] });
            else if (step.kind === 'resync')
              host.emit('follow.resync', { followId: host.followId, generation: 0, reason: 'gap' });
            else if (step.kind === 'reconnect') host.reconnect();
            else await tick();
          }
          // No healing frame at the end: whatever the host sent or snapshotted must arrive.
          for (let i = 0; i < 50 && feed.nextSeq < host.cursor; i++) {
            await feed.settled();
            await tick();
          }
          feed.close();
          expect(errors).toEqual([]);
          expect(delivered).toEqual(Array.from({ length: host.cursor }, (_, i) => i));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('starts at fromSeq: nothing before it is delivered', async () => {
    const host = new ScriptedHost(10, 3, 2);
    host.cursor = 10;
    const delivered: number[] = [];
    const feed = await SessionFeed.open(
      host,
      's',
      4,
      (e) => delivered.push(e.seq),
      () => undefined,
    );
    expect(delivered).toEqual([4, 5, 6, 7, 8, 9]);
    expect(feed.nextSeq).toBe(10);
    feed.close();
  });
});
