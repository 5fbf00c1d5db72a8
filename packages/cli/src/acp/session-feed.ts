import type { ConnectionState, IncomingNotification, RpcCaller } from '@strand/client';
import type { FollowSnapshot, ProjectionValueMap, WireEvent, WireSessionHeader } from '@strand/protocol';

/** What the feed needs of a connection (a `StrandConnection` is one). */
export interface FeedConnection extends RpcCaller {
  readonly state: ConnectionState;
  onNotification(listener: (notification: IncomingNotification) => void): () => void;
  onStateChange(listener: (state: ConnectionState) => void): () => void;
}

const PAGE = 2_000;

interface FollowParams {
  readonly followId?: unknown;
  readonly busy?: unknown;
  readonly events?: unknown;
  readonly key?: unknown;
  readonly value?: unknown;
}

/**
 * One Strand session's events, each exactly once and in seq order from a chosen seq, over a
 * host follow: the history before the follow's window is paged (`session.page`), then the
 * window, then live `follow.events`. A resync, a gap or a reconnect re-follows and pages what it
 * missed, so a consumer sees a contiguous log whatever the wire did — the only state kept here is
 * the next seq to deliver and the latest projection values the follow sent.
 *
 * Work runs one step at a time on a promise chain: a batch that arrives while a page is in
 * flight waits, so delivery order is seq order.
 */
export class SessionFeed {
  readonly #connection: FeedConnection;
  readonly #id: string;
  readonly #deliver: (event: WireEvent) => void;
  readonly #onError: (error: unknown) => void;
  #nextSeq: number;
  #followId: string | undefined;
  /**
   * Frames that arrived while a `session.follow` was in flight: the result settles a promise (a
   * later microtask) while frames are dispatched as they arrive, so the new follow's first frames
   * can come before its id is known. They are kept and replayed once it is.
   */
  #early: { method: string; params: FollowParams }[] | undefined;
  #values: ProjectionValueMap = {};
  #header: WireSessionHeader | undefined;
  #busy = false;
  readonly #idleWaiters = new Set<() => void>();
  #chain: Promise<void> = Promise.resolve();
  #closed = false;
  readonly #unsubscribe: (() => void)[] = [];

  private constructor(
    connection: FeedConnection,
    id: string,
    fromSeq: number,
    deliver: (event: WireEvent) => void,
    onError: (error: unknown) => void,
  ) {
    this.#connection = connection;
    this.#id = id;
    this.#nextSeq = fromSeq;
    this.#deliver = deliver;
    this.#onError = onError;
  }

  /**
   * Follows `id` and delivers every event from `fromSeq`; resolves once the events up to the
   * follow's snapshot cursor have been delivered (a `session/load` answers after its replay).
   */
  static async open(
    connection: FeedConnection,
    id: string,
    fromSeq: number,
    deliver: (event: WireEvent) => void,
    onError: (error: unknown) => void,
  ): Promise<SessionFeed> {
    const feed = new SessionFeed(connection, id, fromSeq, deliver, onError);
    feed.#unsubscribe.push(
      connection.onNotification((n) => feed.#notification(n.method, n.params as FollowParams)),
      connection.onStateChange((state) => {
        // A new socket has new follow ids: the old follow is gone with the old socket.
        if (state === 'open' && feed.#followId !== undefined) feed.#enqueue(() => feed.#follow());
      }),
    );
    try {
      await feed.#run(() => feed.#follow());
    } catch (error) {
      feed.close();
      throw error;
    }
    return feed;
  }

  /** The seq the next delivered event will have: the log length delivered so far. */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  /** The session's header, as the last follow's snapshot gave it. */
  get header(): WireSessionHeader | undefined {
    return this.#header;
  }

  /** The latest projection values the host sent (the snapshot's baseline, then each change). */
  get values(): ProjectionValueMap {
    return this.#values;
  }

  /**
   * Resolves once the host says no turn runs (`busy` of the snapshot, then `follow.state`). A
   * turn's `turn/end` is durable a moment before its runner lets go of the session, and a prompt
   * sent in between is refused as busy: a prompt answers only once the host would take the next.
   */
  whenIdle(): Promise<void> {
    if (!this.#busy || this.#closed) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.add(resolve));
  }

  /** Resolves once everything queued so far (pages, batches) has been delivered. */
  settled(): Promise<void> {
    return this.#chain;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const off of this.#unsubscribe) off();
    this.#setBusy(false);
    const followId = this.#followId;
    this.#followId = undefined;
    if (followId !== undefined && this.#connection.state === 'open')
      // Best effort: the host also drops the follow when the connection closes.
      this.#connection.call('session.unfollow', { followId }).catch(() => undefined);
  }

  #notification(method: string, params: FollowParams): void {
    if (this.#closed || params.followId === undefined) return;
    if (params.followId !== this.#followId) {
      if (this.#early !== undefined && method.startsWith('follow.')) this.#early.push({ method, params });
      return;
    }
    if (method === 'follow.events' && Array.isArray(params.events)) {
      const events = params.events as WireEvent[];
      this.#enqueue(() => this.#accept(events));
    } else if (method === 'follow.projection' && typeof params.key === 'string')
      this.#values = { ...this.#values, [params.key]: params.value };
    else if (method === 'follow.state' && typeof params.busy === 'boolean') this.#setBusy(params.busy);
    else if (method === 'follow.resync') this.#enqueue(() => this.#follow());
  }

  #setBusy(busy: boolean): void {
    this.#busy = busy;
    if (busy) return;
    for (const wake of this.#idleWaiters) wake();
    this.#idleWaiters.clear();
  }

  #enqueue(step: () => Promise<void>): void {
    void this.#run(step).catch((error: unknown) => {
      if (!this.#closed) this.#onError(error);
    });
  }

  #run(step: () => Promise<void>): Promise<void> {
    const next = this.#chain.then(() => (this.#closed ? undefined : step()));
    // The chain itself never rejects: one failed step must not stop every later one.
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #follow(): Promise<void> {
    const old = this.#followId;
    this.#followId = undefined;
    if (old !== undefined)
      await this.#connection.call('session.unfollow', { followId: old }).catch(() => undefined);
    this.#early = [];
    let snapshot: FollowSnapshot;
    try {
      snapshot = await this.#connection.call('session.follow', { id: this.#id, window: PAGE });
    } finally {
      const early = this.#early;
      this.#early = undefined;
      // Replayed once the id is set (this microtask runs before the next await below): they are
      // the new follow's frames past its snapshot, queued after this step.
      if (early !== undefined && early.length > 0)
        queueMicrotask(() => {
          for (const n of early) this.#notification(n.method, n.params);
        });
    }
    this.#followId = snapshot.followId;
    this.#values = snapshot.baseline.values;
    this.#header = snapshot.header;
    this.#setBusy(snapshot.busy);
    await this.#pageTo(snapshot.firstSeq);
    await this.#accept(snapshot.events);
  }

  /** Delivers a contiguous batch, paging any gap before it and skipping what was delivered. */
  async #accept(events: readonly WireEvent[]): Promise<void> {
    const first = events[0];
    if (first === undefined) return;
    if (first.seq > this.#nextSeq) await this.#pageTo(first.seq);
    for (const event of events) {
      if (event.seq !== this.#nextSeq) continue;
      this.#nextSeq++;
      this.#deliver(event);
    }
  }

  async #pageTo(toSeq: number): Promise<void> {
    while (this.#nextSeq < toSeq) {
      const page = await this.#connection.call('session.page', {
        id: this.#id,
        fromSeq: this.#nextSeq,
        toSeq,
        limit: Math.min(PAGE, toSeq - this.#nextSeq),
      });
      if (page.events.length === 0) return;
      for (const event of page.events) {
        if (event.seq !== this.#nextSeq) continue;
        this.#nextSeq++;
        this.#deliver(event);
      }
    }
  }
}
