import type { FollowSnapshot } from '@strand/protocol';
import type { SessionObservation } from '@strand/query';
import { asOfSeqAt, type Session, type SessionEvent, type SessionId } from '@strand/session';
import { isBusy, type ServedServices } from '../services.js';
import { DRAFT_INTERVAL_MS } from '@strand/protocol';
import { realDraftClock } from './draft-throttle.js';
import { DraftsFeed, type DraftPacing } from './drafts-feed.js';
import { EventsFeed } from './events-feed.js';
import { FollowerQueue, type Followed } from './follower-queue.js';
import type { Outbound } from './outbound.js';
import { ProjectionsFeed } from './projections-feed.js';
import { RemoteTail, type RemoteIdentity } from './remote-tail.js';
import { SessionFanout } from './session-fanout.js';
import { StateFeed } from './state-feed.js';
import { SubagentsFeed } from './subagents-feed.js';

export type { DraftPacing } from './drafts-feed.js';

/**
 * Live delivery for `session.follow`: attaches and detaches followers and routes what happens to
 * the feed of each frame kind — `EventsFeed` (durable batches and backfills), `ProjectionsFeed`,
 * `StateFeed` (live, busy, stopped), `DraftsFeed` (the one transient frame, paced) and
 * `SubagentsFeed`. Every feed writes into the follower's one `FollowerQueue`, so a follower's
 * frames keep their order whichever feed made them, are held until its snapshot is on the wire,
 * and a slow consumer is resynced and dropped there. Everything sent is at the session's durable
 * cut (`docs/protocol.md`, "What is durable when").
 *
 * Per followed session a `SessionFanout` holds the one source its followers share: the live
 * `Session` (durable batches and its write failure) or, with several hosts on one database
 * (`services.coordination`), a `RemoteTail` that reads what the followers miss from persistence on
 * every append announcement and sends it through the same feeds. When the session attaches here
 * the tail is dropped; when it detaches a new one takes over.
 */
export class FollowHub {
  readonly #services: ServedServices;
  readonly #maxQueuedBytes: number;
  readonly #fanouts = new Map<SessionId, SessionFanout>();
  readonly #byId = new Map<string, FollowerQueue>();
  readonly #disposers: (() => void)[] = [];
  /** Work to run when a follow ends (e.g. releasing the agent an interactive follow promoted). */
  readonly #onStop = new Map<string, () => void>();
  readonly #events = new EventsFeed();
  readonly #projections: ProjectionsFeed;
  readonly #state: StateFeed;
  readonly #drafts: DraftsFeed;
  readonly #subagents: SubagentsFeed;
  #generation = 0;
  #nextFollowId = 0;

  constructor(
    services: ServedServices,
    maxQueuedBytes: number,
    pacing: DraftPacing = { intervalMs: DRAFT_INTERVAL_MS, clock: realDraftClock },
  ) {
    this.#services = services;
    this.#maxQueuedBytes = maxQueuedBytes;
    const followed = (id: SessionId): Followed | undefined => this.#fanouts.get(id);
    this.#projections = new ProjectionsFeed(followed);
    this.#state = new StateFeed(followed, (id) => isBusy(services, id));
    this.#drafts = new DraftsFeed(followed, this.#events, pacing);
    this.#subagents = new SubagentsFeed(followed, (id) => services.store.get(id)?.header);
    this.#disposers.push(
      services.store.subscribe((change) => {
        this.#subagents.changed(change.session.header);
        this.#state.remember(change.session);
        const fanout = this.#fanouts.get(change.session.id);
        if (fanout === undefined) return;
        if (change.kind === 'attached') this.#attach(fanout, change.session);
        else if (fanout.session === change.session) this.#detach(fanout);
      }),
      services.registry.onChanged((sessionId, key, value, seq) =>
        this.#projections.changed(sessionId, key, value, seq),
      ),
    );
    if (services.agents !== undefined) {
      this.#disposers.push(services.agents.onBusyChange((id, busy) => this.#state.busyChanged(id, busy)));
      const drafts = services.agents.onDraft?.((id, step, text) => this.#drafts.offer(id, step, text));
      if (drafts !== undefined) this.#disposers.push(drafts);
    }
  }

  get followerCount(): number {
    return this.#byId.size;
  }

  close(): void {
    for (const dispose of this.#disposers) dispose();
    for (const release of this.#onStop.values()) release();
    this.#onStop.clear();
    for (const fanout of this.#fanouts.values()) fanout.close();
    this.#drafts.close();
    for (const follower of this.#byId.values()) follower.drop();
    this.#fanouts.clear();
    this.#byId.clear();
  }

  /**
   * Registers a follower at the observation's cut and builds its opening snapshot. Frames for it
   * are held until `open(followId)` is called after the snapshot was written to the socket.
   */
  start(observation: SessionObservation, out: Outbound): FollowSnapshot {
    const generation = ++this.#generation;
    const followId = `f${++this.#nextFollowId}`;
    const sessionId = observation.header.id;
    const follower = new FollowerQueue(
      { followId, generation, sessionId },
      out,
      this.#maxQueuedBytes,
      (dropped) => this.#remove(dropped),
    );
    this.#events.begin(follower, observation.cursor);
    this.#byId.set(followId, follower);
    let fanout = this.#fanouts.get(sessionId);
    if (fanout === undefined) {
      fanout = new SessionFanout();
      this.#fanouts.set(sessionId, fanout);
    }
    fanout.followers.add(follower);
    const live = this.#services.store.get(sessionId);
    if (live !== undefined && fanout.session !== live) this.#attach(fanout, live);
    else if (live !== undefined) {
      // Appends between the observation's cut and now reach this follower as its first frame.
      this.#events.backfill(follower, live);
      this.#state.joinedLive(follower, live);
    } else {
      this.#state.joinedCold(follower);
      this.#followRemote(fanout, observation, observation.projections?.values);
    }
    return {
      followId,
      generation,
      header: observation.header,
      inheritedEventCount: observation.inheritedEventCount,
      cursor: observation.cursor,
      firstSeq: observation.firstSeq,
      events: observation.events,
      baseline: observation.projections ?? { asOfSeq: asOfSeqAt(observation.cursor), values: {} },
      live: live !== undefined,
      busy: live !== undefined && isBusy(this.#services, sessionId),
    };
  }

  /** The snapshot is on the wire: release held frames in order. */
  open(followId: string): void {
    this.#byId.get(followId)?.open();
  }

  /** Runs `release` when the follow ends — at once if it already has. */
  onStop(followId: string, release: () => void): void {
    if (this.#byId.has(followId)) this.#onStop.set(followId, release);
    else release();
  }

  stop(followId: string): boolean {
    const follower = this.#byId.get(followId);
    if (follower === undefined) return false;
    this.#remove(follower);
    return true;
  }

  /** Drops every follow of a closed connection. */
  dropConnection(out: Outbound): void {
    for (const follower of [...this.#byId.values()]) if (follower.out === out) this.#remove(follower);
  }

  #remove(follower: FollowerQueue): void {
    follower.drop();
    this.#byId.delete(follower.followId);
    const release = this.#onStop.get(follower.followId);
    this.#onStop.delete(follower.followId);
    release?.();
    const fanout = this.#fanouts.get(follower.sessionId);
    if (fanout === undefined) return;
    fanout.followers.delete(follower);
    if (fanout.followers.size === 0) {
      fanout.close();
      this.#drafts.forget(follower.sessionId);
      this.#fanouts.delete(follower.sessionId);
    }
  }

  #attach(fanout: SessionFanout, session: Session): void {
    this.#state.remember(session);
    // A session that already stopped says so in the state frames below.
    fanout.live(
      session,
      (batch) => this.#batch(fanout, session.id, batch),
      () => this.#stopped(fanout, session),
    );
    for (const follower of fanout.followers) this.#events.backfill(follower, session);
    this.#state.live(session);
  }

  /** The live session stopped on a failed durable write: say so to every follower. */
  #stopped(fanout: SessionFanout, session: Session): void {
    this.#state.remember(session);
    if (fanout.session !== session) return;
    // A draft held by the pacing would reach followers after `stopped`.
    this.#drafts.forget(session.id);
    this.#state.live(session);
  }

  #detach(fanout: SessionFanout): void {
    const session = fanout.cold();
    if (session === undefined) return;
    this.#drafts.cancel(session.id);
    this.#state.cold(session.id);
    // Cold here again: another host may take the session over and write.
    this.#followRemote(fanout, session, undefined);
  }

  #batch(fanout: SessionFanout, sessionId: SessionId, batch: readonly SessionEvent[]): void {
    this.#drafts.delivering(sessionId, batch);
    this.#events.batch(fanout.followers, batch);
  }

  /** Starts (or nudges) the fanout's remote tail; a catch-up read covers appends before the subscription. */
  #followRemote(
    fanout: SessionFanout,
    identity: RemoteIdentity & { readonly header: { readonly id: SessionId } },
    knownValues: Readonly<Record<string, unknown>> | undefined,
  ): void {
    const coordination = this.#services.coordination;
    if (coordination === undefined) return;
    const id = identity.header.id;
    fanout.pullRemote(
      () =>
        new RemoteTail(
          {
            persistence: this.#services.persistence,
            registry: this.#services.registry,
            cache: this.#services.cache,
            coordination,
          },
          {
            header: identity.header,
            incarnation: identity.incarnation,
            inheritedEventCount: identity.inheritedEventCount,
          },
          knownValues,
          {
            nextSeq: () => this.#events.lowest(fanout.followers),
            active: () => fanout.session === undefined && this.#fanouts.get(id) === fanout,
            events: (batch) => this.#batch(fanout, id, batch),
            projection: (key, value, seq) => this.#projections.changed(id, key, value, seq),
            resync: (reason) => {
              for (const follower of [...fanout.followers]) follower.resync(reason);
            },
          },
          (error) =>
            this.#services.logger.error('following a session across hosts failed', {
              sessionId: id,
              error,
            }),
        ),
    );
  }
}
