import type { FollowSnapshot, WireEvent } from '@strand/protocol';
import { SerialQueue, defined } from '@strand/session';
import { assertNever } from '../assert-never.js';
import type { ConnectionState, IncomingNotification } from '../connection/strand-connection.js';
import { isStrandClientError, StrandClientError } from '../errors.js';
import { Listeners, reportToConsole, type ListenerErrorReporter } from '../listeners.js';
import type { ProjectionStore } from '../projection-store/projection-store.js';
import { parseFollowNotification, type FollowFrame } from './follow-frames.js';
import { heldFrames, holding, isSameOpening, newOpening, routeFrame, type Opening } from './frame-routing.js';
import type { FollowTransport } from './follow-transport.js';
import type { FollowView, LoadOlderResult, ShownGeneration } from './follow-view.js';
import { windowForSnapshot } from './join-generation.js';
import { applyOlderPage } from './load-older.js';
import { continueWindow } from './live-events.js';
import { releaseFollow } from './release-follow.js';
import {
  acceptedOf,
  begin,
  connectionClosed,
  errorOf,
  opened,
  openingFailed,
  openingOf,
  phaseOf,
  showing,
  snapshotAccepted,
  socketLost,
  stopped,
  targetOf,
  withError,
  withOpening,
  type FollowState,
  type StopResult,
} from './follow-state.js';
import { isFor, shownFrom, windowOf, withWindow, type Carrier } from './shown-generation.js';
import { snapshotSessionProblem } from './snapshot-check.js';

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

/** The options with their defaults, resolved once. */
interface Resolved {
  readonly window: number | undefined;
  readonly maxGapFill: number;
  readonly maxBufferedFrames: number;
  readonly pageLimit: number;
}

function resolveOptions(options: SessionFollowerOptions): Resolved {
  return {
    window: options.window,
    maxGapFill: options.maxGapFill ?? 1000,
    maxBufferedFrames: options.maxBufferedFrames ?? 10_000,
    pageLimit: options.pageLimit ?? 500,
  };
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
 *
 * State contract. What the follower knows is one `FollowState` (follow-state.ts); it changes only
 * to what a pure transition returns, and the effects that transition names are carried out here.
 */
export class SessionFollower {
  readonly #connection: FollowTransport;
  readonly #store: ProjectionStore;
  readonly #options: Resolved;
  readonly #listeners: Listeners<FollowView>;
  readonly #subagents: Listeners<string>;
  readonly #queue: SerialQueue;
  /** The one piece of state; replaced only through the transitions of `follow-state.ts`. */
  #state: FollowState = { kind: 'idle', error: null };
  /** How many `session.follow`s this follower sent: the next opening's id. */
  #openings = 0;
  /** The connection listeners of the current follow. */
  #detach: (() => void)[] = [];
  /** Rebuilt at each emit, so a view object stays the same between two notifications. */
  #view: FollowView | null = null;

  constructor(options: SessionFollowerOptions) {
    this.#connection = options.connection;
    this.#store = options.store;
    this.#options = resolveOptions(options);
    const report = options.reportListenerError ?? reportToConsole;
    this.#listeners = new Listeners(report);
    this.#subagents = new Listeners(report);
    this.#queue = new SerialQueue(report);
  }

  get view(): FollowView {
    this.#view ??= {
      sessionId: targetOf(this.#state)?.sessionId ?? null,
      phase: phaseOf(this.#state),
      shown: acceptedOf(this.#state)?.shown ?? null,
      error: errorOf(this.#state),
    };
    return this.#view;
  }

  subscribe(listener: (view: FollowView) => void): () => void {
    return this.#listeners.add(listener);
  }

  /**
   * Calls `listener(sessionId)` when the followed session's subagent rows may have changed: on a
   * `follow.subagents` frame of the shown generation (in order with its other frames), and each
   * time a generation is accepted (changes while none was shown went unannounced). The listener
   * should call `subagent.list` again; the follower never derives rows itself.
   */
  onSubagents(listener: (sessionId: string) => void): () => void {
    return this.#subagents.add(listener);
  }

  /**
   * Follows `sessionId`; resolves once its first generation is accepted. Rejects with the host's
   * `StrandRpcError` (the follower is idle again), `CLIENT_FOLLOW_ACTIVE`, or `CLIENT_CLOSED`.
   * A disconnect before the first snapshot is not a failure: the next socket re-follows.
   */
  follow(sessionId: string, options: { readonly interactive?: boolean } = {}): Promise<void> {
    const current = targetOf(this.#state);
    if (current !== null) {
      return Promise.reject(
        new StrandClientError('CLIENT_FOLLOW_ACTIVE', `already following ${current.sessionId}`),
      );
    }
    if (this.#connection.state === 'closed') {
      return Promise.reject(
        new StrandClientError('CLIENT_CLOSED', `follow ${sessionId}: the connection is closed`),
      );
    }
    const promise = new Promise<void>((resolve, reject) => {
      this.#set(begin({ sessionId, interactive: options.interactive ?? false }, { resolve, reject }));
    });
    this.#detach = [
      this.#connection.onNotification((notification) => this.#receive(notification)),
      this.#connection.onStateChange((state) => this.#connectionChanged(state)),
    ];
    if (this.#connection.state === 'open') this.#open();
    return promise;
  }

  /** Opens a new generation now (a retry after `failed`); no-op while one is opening or offline. */
  refollow(): void {
    if (targetOf(this.#state) === null || this.#connection.state !== 'open') return;
    if (openingOf(this.#state)?.epoch === this.#connection.epoch) return;
    this.#open();
  }

  /** Loads up to `limit` events before the window with `session.page { beforeSeq }`. */
  async loadOlder(limit: number): Promise<LoadOlderResult> {
    const sessionId = targetOf(this.#state)?.sessionId;
    const shown = acceptedOf(this.#state)?.shown;
    if (sessionId === undefined || shown === undefined) {
      throw new StrandClientError('CLIENT_NOT_FOLLOWING', 'loadOlder: no generation is shown');
    }
    if (shown.firstSeq === 0) return { kind: 'complete' };
    const page = await this.#connection.call('session.page', {
      id: sessionId,
      beforeSeq: shown.firstSeq,
      limit,
    });
    return this.#queue.run((): LoadOlderResult => {
      const now = acceptedOf(this.#state)?.shown;
      if (targetOf(this.#state)?.sessionId !== sessionId || now === undefined) return { kind: 'superseded' };
      const applied = applyOlderPage(sessionId, now, shown.firstSeq, page);
      if (applied.result.kind === 'loaded') this.#show(applied.shown);
      return applied.result;
    });
  }

  /** Stops following: the view goes idle; the host is told (best effort) when the socket still serves the follow. */
  async unfollow(): Promise<void> {
    if (targetOf(this.#state) === null) return;
    const { reject, release } = this.#stop();
    reject?.reject(new StrandClientError('CLIENT_NOT_FOLLOWING', 'unfollowed before the first generation'));
    if (release !== null) await releaseFollow(this.#connection, release.followId, release.epoch);
  }

  /** Resolves once every frame and snapshot received so far has been applied. */
  settled(): Promise<void> {
    return this.#queue.settled();
  }

  #open(): void {
    const target = targetOf(this.#state);
    if (target === null) return;
    this.#openings += 1;
    const opening = newOpening(this.#openings, this.#connection.epoch);
    const moved = opened(this.#state, opening);
    if (moved.kind === 'unchanged') return;
    this.#set(moved.state);
    const window = this.#options.window;
    const params = {
      id: target.sessionId,
      interactive: target.interactive,
      ...defined({ window }),
    };
    void this.#connection.call('session.follow', params).then(
      (snapshot) => this.#queue.enqueue(() => this.#accept(opening, snapshot)),
      (error: unknown) => this.#queue.enqueue(() => this.#openFailed(opening, error)),
    );
  }

  #receive(notification: IncomingNotification): void {
    if (targetOf(this.#state) === null) return;
    const parsed = parseFollowNotification(notification.method, notification.params);
    if (parsed.kind !== 'frame') return;
    const frame = parsed.frame;
    const route = routeFrame(
      frame,
      notification.epoch,
      acceptedOf(this.#state)?.carrier ?? null,
      openingOf(this.#state),
    );
    switch (route.kind) {
      case 'apply':
        this.#queue.enqueue(() => this.#apply(frame, route.carrier));
        return;
      case 'hold': {
        const moved = withOpening(
          this.#state,
          holding(route.opening, frame, this.#options.maxBufferedFrames),
        );
        if (moved.kind === 'moved') this.#state = moved.state; // the phase is unchanged: nothing to tell
        return;
      }
      case 'ignore':
        return;
      default:
        assertNever(route, 'frame route');
    }
  }

  #connectionChanged(state: ConnectionState): void {
    switch (state) {
      case 'open':
        if (acceptedOf(this.#state)?.carrier.epoch !== this.#connection.epoch) this.refollow();
        return;
      case 'connecting':
      case 'reconnecting': {
        // The socket and every follow id on it are gone; the next open re-follows.
        const moved = socketLost(this.#state);
        if (moved.kind === 'unchanged') return;
        // Listeners hear of a phase change only (following → refollowing).
        if (phaseOf(moved.state) === phaseOf(this.#state)) this.#state = moved.state;
        else this.#set(moved.state);
        return;
      }
      case 'closed': {
        const closed = connectionClosed(
          this.#state,
          new StrandClientError('CLIENT_CLOSED', 'the connection was closed'),
        );
        if (closed.kind === 'unchanged') return;
        this.#set(closed.state);
        closed.reject?.reject(errorOf(closed.state));
        return;
      }
      default:
        assertNever(state, 'connection state');
    }
  }

  async #accept(opening: Opening, snapshot: FollowSnapshot): Promise<void> {
    const sessionId = targetOf(this.#state)?.sessionId;
    if (!isSameOpening(openingOf(this.#state), opening) || sessionId === undefined) {
      void releaseFollow(this.#connection, snapshot.followId, opening.epoch);
      return;
    }
    // The connection checked the snapshot's shape with the protocol's schema; only whose it is remains.
    const misdirected = snapshotSessionProblem(snapshot, sessionId);
    if (misdirected !== null) {
      this.#openFailed(opening, new StrandClientError('CLIENT_SNAPSHOT_INVALID', misdirected));
      return;
    }
    const joined = await windowForSnapshot(
      this.#connection,
      acceptedOf(this.#state)?.shown ?? null,
      snapshot,
      {
        maxGapFill: this.#options.maxGapFill,
        pageLimit: this.#options.pageLimit,
        isCurrent: () => isSameOpening(openingOf(this.#state), opening),
      },
    );
    // The opening as it is now: frames were held in it while the window was joined.
    const current = openingOf(this.#state);
    if (joined.kind === 'superseded' || current === null || !isSameOpening(current, opening)) return;
    if (!joined.sameLog) this.#store.forget(sessionId); // recreated under this id: its seqs restarted
    const carrier: Carrier = {
      followId: snapshot.followId,
      generation: snapshot.generation,
      epoch: opening.epoch,
    };
    const result = snapshotAccepted(this.#state, current, {
      carrier,
      shown: shownFrom(snapshot, joined.window),
    });
    if (result.kind === 'stale') return;
    this.#store.applyBaseline(sessionId, snapshot.baseline);
    this.#set(result.state);
    result.resolve?.resolve();
    // Children may have changed while no generation carried `follow.subagents` (before the
    // first, or across a reconnect): a listing the caller made before is possibly stale.
    this.#subagents.emit(sessionId);
    if (result.release !== null)
      void releaseFollow(this.#connection, result.release.followId, result.release.epoch);
    for (const frame of heldFrames(current)) {
      if (isFor(frame, carrier, carrier.epoch)) await this.#apply(frame, carrier);
    }
    if (current.overflowed) this.refollow();
  }

  /**
   * The first generation failing makes `follow()` reject and the follower idle; a later one keeps
   * the shown one. A lost socket is no failure (the next open re-follows).
   */
  #openFailed(opening: Opening, error: unknown): void {
    const result = openingFailed(
      this.#state,
      opening,
      error,
      isStrandClientError(error, 'CLIENT_DISCONNECTED'),
    );
    switch (result.kind) {
      case 'stale':
        return;
      case 'dropped':
        this.#state = result.state; // the phase is unchanged: nothing to tell
        return;
      case 'stopped':
        this.#detachAll();
        this.#set(result.state);
        result.reject.reject(error);
        return;
      case 'failed':
        this.#set(result.state);
        return;
      default:
        assertNever(result, 'opening failure');
    }
  }

  async #apply(frame: FollowFrame, carrier: Carrier): Promise<void> {
    const accepted = acceptedOf(this.#state);
    const sessionId = targetOf(this.#state)?.sessionId;
    if (accepted?.carrier !== carrier || sessionId === undefined) return; // a newer generation took over
    switch (frame.kind) {
      case 'events':
        await this.#applyEvents(frame.events, carrier, sessionId);
        return;
      case 'projection':
        this.#store.applyFrame(sessionId, frame);
        return;
      case 'state': {
        // The host repeats `stopped` in every state frame until the session reopens: it is the
        // authority, so a frame without it (the reopened session) ends the stop.
        const { stopped: _previous, ...shown } = accepted.shown;
        const stopped = frame.stopped;
        this.#show({
          ...shown,
          live: frame.live,
          busy: frame.busy,
          ...defined({ stopped }),
        });
        return;
      }
      case 'resync':
        this.refollow();
        return;
      case 'subagents':
        this.#subagents.emit(sessionId);
        return;
      case 'brokenEvents':
        this.#recover(
          new StrandClientError('CLIENT_PAGE_INVALID', `follow.events of ${sessionId}: ${frame.reason}`),
        );
        return;
      default:
        assertNever(frame, 'follow frame');
    }
  }

  async #applyEvents(events: readonly WireEvent[], carrier: Carrier, sessionId: string): Promise<void> {
    const shown = acceptedOf(this.#state)?.shown;
    if (shown === undefined) return;
    const result = await continueWindow(this.#connection, sessionId, windowOf(shown), events, {
      isCurrent: () => acceptedOf(this.#state)?.carrier === carrier,
      pageLimit: this.#options.pageLimit,
    });
    switch (result.kind) {
      case 'advanced':
        this.#show(withWindow(shown, result.window));
        return;
      case 'unchanged':
      case 'superseded':
        return;
      case 'broken':
        this.#recover(result.error);
        return;
      default:
        assertNever(result, 'live events result');
    }
  }

  /** The window can no longer be continued from frames: open a new generation (a disconnect re-follows anyway). */
  #recover(error: unknown): void {
    if (isStrandClientError(error, 'CLIENT_DISCONNECTED')) return;
    // Recorded for the next view; the re-follow below is what listeners hear of.
    this.#state = withError(this.#state, error);
    this.refollow();
  }

  #stop(): StopResult {
    this.#detachAll();
    const result = stopped(this.#state);
    this.#set(result.state);
    return result;
  }

  #detachAll(): void {
    for (const detach of this.#detach) detach();
    this.#detach = [];
  }

  #show(shown: ShownGeneration): void {
    const moved = showing(this.#state, shown);
    if (moved.kind === 'moved') this.#set(moved.state);
  }

  /** Replaces the state and tells the listeners. */
  #set(state: FollowState): void {
    this.#state = state;
    this.#view = null;
    this.#listeners.emit(this.view);
  }
}
