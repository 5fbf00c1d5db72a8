import type { FollowSnapshot } from '@strand/protocol';
import { assertNever } from '../assert-never.js';
import type { ConnectionState, IncomingNotification } from '../connection/strand-connection.js';
import { isStrandClientError, StrandClientError } from '../errors.js';
import { Listeners, reportToConsole, type ListenerErrorReporter } from '../listeners.js';
import type { ProjectionStore } from '../projection-store/projection-store.js';
import { parseFollowNotification, type FollowFrame } from './follow-frames.js';
import { routeFrame, type Opening } from './frame-routing.js';
import type { FollowTransport } from './follow-transport.js';
import type { FollowPhase, FollowView, LoadOlderResult, ShownGeneration } from './follow-view.js';
import { windowForSnapshot } from './join-generation.js';
import { applyOlderPage } from './load-older.js';
import { continueWindow } from './live-events.js';
import { releaseFollow } from './release-follow.js';
import { SerialQueue } from './serial-queue.js';
import { isFor, shownFrom, windowOf, withWindow, type Carrier } from './shown-generation.js';
import { checkSnapshot } from './snapshot-check.js';

export interface SessionFollowerOptions {
  readonly connection: FollowTransport;
  /** The shared store: the follow's baseline and projection frames go here. */
  readonly store: ProjectionStore;
  /** The tail window asked of the host (`session.follow`'s `window`); the host's default when absent. */
  readonly window?: number;
  /** Largest hole between a previous window and a new snapshot filled by paging instead of replacing. Default 1000. */
  readonly maxGapFill?: number;
  /** Frames held while a snapshot is awaited; past this they are dropped and the generation re-opened. Default 10000. */
  readonly maxBufferedFrames?: number;
  /** `limit` of each gap-repair page. Default 500. */
  readonly pageLimit?: number;
  readonly reportListenerError?: ListenerErrorReporter;
}

interface Deferred {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The follow carrier of one session (packages/host/README.md): opens a generation with `session.follow`,
 * whose result is the opening snapshot, then applies that generation's frames.
 *
 * Ordering contract. Every state change runs as one step of a serial queue. A snapshot result is
 * a promise continuation, while frames are dispatched synchronously as messages arrive — so frames
 * of a generation can reach us before its snapshot is processed, whatever order the host sent them
 * in. Frames whose follow id is not yet known are therefore buffered while a follow is in flight
 * and applied, in arrival order, right after the snapshot is accepted. Frames of any other
 * generation (older, another socket's, another follower's) are ignored.
 *
 * Replacement contract. A new generation (every reconnect, every `follow.resync`) is accepted only
 * once its snapshot validated; until then the previous one stays shown and `phase` says
 * `refollowing`. Its window joins the previous one when they touch; a hole of at most
 * `maxGapFill` events is paged in first; a larger one replaces the window (older history stays
 * reachable through `loadOlder`).
 */
export class SessionFollower {
  private readonly connection: FollowTransport;
  private readonly store: ProjectionStore;
  private readonly listeners: Listeners<FollowView>;
  private readonly report: ListenerErrorReporter;
  private sessionId: string | null = null;
  private interactive = false;
  private phase: FollowPhase = 'idle';
  private shown: ShownGeneration | null = null;
  private carrier: Carrier | null = null;
  private opening: Opening | null = null;
  private error: unknown = null;
  private first: Deferred | null = null;
  private detach: (() => void)[] = [];
  private readonly queue: SerialQueue;
  private cachedView: FollowView | null = null;

  constructor(private readonly options: SessionFollowerOptions) {
    this.connection = options.connection;
    this.store = options.store;
    this.report = options.reportListenerError ?? reportToConsole;
    this.listeners = new Listeners(this.report);
    this.queue = new SerialQueue(this.report);
  }

  get view(): FollowView {
    this.cachedView ??= {
      sessionId: this.sessionId,
      phase: this.phase,
      shown: this.shown,
      error: this.error,
    };
    return this.cachedView;
  }

  subscribe(listener: (view: FollowView) => void): () => void {
    return this.listeners.add(listener);
  }

  /**
   * Follows `sessionId`; resolves once its first generation is accepted. Rejects with the host's
   * `StrandRpcError` (the follower is idle again), `CLIENT_FOLLOW_ACTIVE`, or `CLIENT_CLOSED`.
   * A disconnect before the first snapshot is not a failure: the next socket re-follows.
   */
  follow(sessionId: string, options: { readonly interactive?: boolean } = {}): Promise<void> {
    if (this.sessionId !== null) {
      return Promise.reject(
        new StrandClientError('CLIENT_FOLLOW_ACTIVE', `already following ${this.sessionId}`),
      );
    }
    if (this.connection.state === 'closed') {
      return Promise.reject(
        new StrandClientError('CLIENT_CLOSED', `follow ${sessionId}: the connection is closed`),
      );
    }
    this.sessionId = sessionId;
    this.interactive = options.interactive ?? false;
    this.error = null;
    this.detach = [
      this.connection.onNotification((notification) => this.receive(notification)),
      this.connection.onStateChange((state) => this.connectionChanged(state)),
    ];
    const promise = new Promise<void>((resolve, reject) => {
      this.first = { resolve, reject };
    });
    this.update('opening');
    if (this.connection.state === 'open') this.open();
    return promise;
  }

  /** Opens a new generation now (a retry after `failed`); no-op while one is opening or offline. */
  refollow(): void {
    if (this.sessionId === null || this.connection.state !== 'open') return;
    if (this.opening !== null && this.opening.epoch === this.connection.epoch) return;
    this.open();
  }

  /** Loads up to `limit` events before the window with `session.page { beforeSeq }`. */
  async loadOlder(limit: number): Promise<LoadOlderResult> {
    const sessionId = this.sessionId;
    const shown = this.shown;
    if (sessionId === null || shown === null) {
      throw new StrandClientError('CLIENT_NOT_FOLLOWING', 'loadOlder: no generation is shown');
    }
    if (shown.firstSeq === 0) return { kind: 'complete' };
    const page = await this.connection.call('session.page', {
      id: sessionId,
      beforeSeq: shown.firstSeq,
      limit,
    });
    return this.queue.run((): LoadOlderResult => {
      if (this.sessionId !== sessionId || this.shown === null) return { kind: 'superseded' };
      const applied = applyOlderPage(sessionId, this.shown, shown.firstSeq, page);
      if (applied.result.kind === 'loaded') this.show(applied.shown);
      return applied.result;
    });
  }

  /** Stops following: the view goes idle; the host is told (best effort) when the socket still serves the follow. */
  async unfollow(): Promise<void> {
    if (this.sessionId === null) return;
    const carrier = this.carrier;
    const first = this.first;
    this.stop();
    first?.reject(new StrandClientError('CLIENT_NOT_FOLLOWING', 'unfollowed before the first generation'));
    if (carrier !== null) await releaseFollow(this.connection, carrier.followId, carrier.epoch);
  }

  /** Resolves once every frame and snapshot received so far has been applied. */
  settled(): Promise<void> {
    return this.queue.settled();
  }

  private open(): void {
    const sessionId = this.sessionId;
    if (sessionId === null) return;
    const opening: Opening = { epoch: this.connection.epoch, buffered: [], overflowed: false };
    this.opening = opening;
    this.update(this.shown === null ? 'opening' : 'refollowing');
    const window = this.options.window;
    const params = {
      id: sessionId,
      interactive: this.interactive,
      ...(window === undefined ? {} : { window }),
    };
    void this.connection.call('session.follow', params).then(
      (snapshot) => this.queue.enqueue(() => this.accept(opening, snapshot)),
      (error: unknown) => this.queue.enqueue(() => this.openFailed(opening, error)),
    );
  }

  private receive(notification: IncomingNotification): void {
    if (this.sessionId === null) return;
    const parsed = parseFollowNotification(notification.method, notification.params);
    if (parsed.kind !== 'frame') return;
    const frame = parsed.frame;
    const maxBuffered = this.options.maxBufferedFrames ?? 10_000;
    const route = routeFrame(frame, notification.epoch, this.carrier, this.opening, maxBuffered);
    switch (route.kind) {
      case 'apply':
        this.queue.enqueue(() => this.apply(frame, route.carrier));
        return;
      case 'buffer':
        route.opening.buffered.push(frame);
        return;
      case 'overflow':
        route.opening.overflowed = true;
        return;
      case 'ignore':
        return;
      default:
        assertNever(route, 'frame route');
    }
  }

  private connectionChanged(state: ConnectionState): void {
    switch (state) {
      case 'open':
        if (this.carrier?.epoch !== this.connection.epoch) this.refollow();
        return;
      case 'connecting':
      case 'reconnecting':
        // The socket and every follow id on it are gone; the next open re-follows.
        this.opening = null;
        if (this.shown !== null && this.phase === 'following') this.update('refollowing');
        return;
      case 'closed': {
        const first = this.first;
        this.first = null;
        this.opening = null;
        this.error = new StrandClientError('CLIENT_CLOSED', 'the connection was closed');
        this.update('failed');
        first?.reject(this.error);
        return;
      }
      default:
        assertNever(state, 'connection state');
    }
  }

  private async accept(opening: Opening, value: FollowSnapshot): Promise<void> {
    const sessionId = this.sessionId;
    if (this.opening !== opening || sessionId === null) {
      void releaseFollow(this.connection, (value as { followId?: unknown } | null)?.followId, opening.epoch);
      return;
    }
    const checked = checkSnapshot(value, sessionId);
    if (checked.kind === 'invalid') {
      this.opening = null;
      this.failOpening(new StrandClientError('CLIENT_SNAPSHOT_INVALID', checked.reason));
      return;
    }
    const snapshot = checked.snapshot;
    const joined = await windowForSnapshot(this.connection, this.shown, snapshot, {
      maxGapFill: this.options.maxGapFill ?? 1000,
      pageLimit: this.pageLimit(),
      isCurrent: () => this.opening === opening,
    });
    if (joined.kind === 'superseded' || this.opening !== opening) return;
    if (!joined.sameLog) this.store.forget(sessionId); // recreated under this id: its seqs restarted
    const oldCarrier = this.carrier;
    const carrier: Carrier = {
      followId: snapshot.followId,
      generation: snapshot.generation,
      epoch: opening.epoch,
    };
    this.carrier = carrier;
    this.opening = null;
    this.error = null;
    this.store.applyBaseline(sessionId, snapshot.baseline);
    this.shown = shownFrom(snapshot, joined.window);
    this.update('following');
    const first = this.first;
    this.first = null;
    first?.resolve();
    if (oldCarrier !== null && oldCarrier.followId !== carrier.followId) {
      void releaseFollow(this.connection, oldCarrier.followId, oldCarrier.epoch);
    }
    for (const frame of opening.buffered) {
      if (isFor(frame, carrier, carrier.epoch)) await this.apply(frame, carrier);
    }
    if (opening.overflowed) this.refollow();
  }

  private openFailed(opening: Opening, error: unknown): void {
    if (this.opening !== opening) return; // superseded, or the socket went away (the next open re-follows)
    this.opening = null;
    if (isStrandClientError(error, 'CLIENT_DISCONNECTED')) return;
    this.failOpening(error);
  }

  /** The first generation failing makes `follow()` reject and the follower idle; a later one keeps the shown one. */
  private failOpening(error: unknown): void {
    this.error = error;
    if (this.shown === null) {
      const first = this.first;
      this.stop();
      first?.reject(error);
      return;
    }
    this.update('failed');
  }

  private async apply(frame: FollowFrame, carrier: Carrier): Promise<void> {
    if (this.carrier !== carrier || this.sessionId === null) return; // a newer generation took over
    switch (frame.kind) {
      case 'events':
        await this.applyEvents(frame.events, carrier, this.sessionId);
        return;
      case 'projection':
        this.store.applyFrame(this.sessionId, frame);
        return;
      case 'state':
        if (this.shown !== null) {
          const { stopped: _previous, ...shown } = this.shown;
          // A session that went cold was reopened from disk (or will be): it no longer stops.
          const stopped = frame.stopped ?? (frame.live ? this.shown.stopped : undefined);
          this.show({
            ...shown,
            live: frame.live,
            busy: frame.busy,
            ...(stopped === undefined ? {} : { stopped }),
          });
        }
        return;
      case 'resync':
        this.refollow();
        return;
      default:
        assertNever(frame, 'follow frame');
    }
  }

  private async applyEvents(events: readonly unknown[], carrier: Carrier, sessionId: string): Promise<void> {
    const shown = this.shown;
    if (shown === null) return;
    const result = await continueWindow(this.connection, sessionId, windowOf(shown), events, {
      isCurrent: () => this.carrier === carrier,
      pageLimit: this.pageLimit(),
    });
    switch (result.kind) {
      case 'advanced':
        this.show(withWindow(shown, result.window));
        return;
      case 'unchanged':
      case 'superseded':
        return;
      case 'broken':
        this.recover(result.error);
        return;
      default:
        assertNever(result, 'live events result');
    }
  }

  /** The window can no longer be continued from frames: open a new generation (a disconnect re-follows anyway). */
  private recover(error: unknown): void {
    if (isStrandClientError(error, 'CLIENT_DISCONNECTED')) return;
    this.error = error;
    this.refollow();
  }

  private stop(): void {
    for (const detach of this.detach) detach();
    this.detach = [];
    this.sessionId = null;
    this.carrier = null;
    this.opening = null;
    this.shown = null;
    this.first = null;
    this.update('idle');
  }

  private pageLimit(): number {
    return this.options.pageLimit ?? 500;
  }

  private show(shown: ShownGeneration): void {
    this.shown = shown;
    this.update(this.phase);
  }

  private update(phase: FollowPhase): void {
    this.phase = phase;
    this.cachedView = null;
    this.listeners.emit(this.view);
  }
}
