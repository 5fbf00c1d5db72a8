import type { FollowSnapshot, FollowStopped } from '@strand/protocol';
import type { SessionObservation } from '@strand/query';
import { asOfSeqAt, type Session, type SessionEvent, type SessionId, defined } from '@strand/session';
import type { ServedServices } from '../services.js';
import { DRAFT_INTERVAL_MS } from '@strand/protocol';
import { DraftThrottle, realDraftClock, type DraftClock } from './draft-throttle.js';
import type { Outbound } from './outbound.js';
import { RemoteTail, type RemoteIdentity } from './remote-tail.js';
import { subagentAncestors } from './subagent-ancestors.js';

/** One follower: a client's view of one session in one generation. */
interface Follow {
  readonly followId: string;
  readonly generation: number;
  readonly sessionId: SessionId;
  readonly out: Outbound;
  /** The next seq this follower must receive. */
  nextSeq: number;
  /** Frames are held until the snapshot (the RPC result) is on the wire. */
  opened: boolean;
  held: string[];
  stopped: boolean;
}

/** Per session: the live subscription shared by every follower of it. */
interface Fanout {
  readonly followers: Set<Follow>;
  session: Session | undefined;
  /** Stops both the durable-batch and the write-failure subscription of `session`. */
  unsubscribe: (() => void) | undefined;
  /** Not live here, with several hosts on one database: other hosts' appends, read from the log. */
  remote: RemoteTail | undefined;
  /** `follow.draft` coalescing for the running step; made on the first draft. */
  drafts: DraftThrottle | undefined;
}

/** How `follow.draft` is paced: one per `intervalMs` per session at most (so per follow too). */
export interface DraftPacing {
  readonly intervalMs: number;
  readonly clock: DraftClock;
}

/**
 * Live delivery for `session.follow`. Everything it sends is at the session's durable cut: it
 * subscribes to durable batches (`Session.subscribe`), backfills from the durable prefix, and
 * projection frames come from a registry that folds durable batches only — so no follower ever
 * holds an event a failed write or a crash could take back. When a live session stops on a failed
 * durable write its followers get a `follow.state` with `stopped`. Each batch and each projection value is serialized once per
 * session and wrapped per follower by string concatenation (fan-out costs one `JSON.stringify`).
 * A follower whose connection has more than `maxQueuedBytes` queued gets `follow.resync` and
 * is dropped — memory stays bounded; the client re-follows for a new generation.
 *
 * `follow.draft` is the one transient frame: the running step's text so far, from the agent
 * (`AgentPort.onDraft`), never from the log. It goes only to followers already sent the step's
 * durable `step/start`, paced per session (`DraftThrottle`), and a pending one is dropped once
 * the step's `assistant/message` (or its closing) is delivered.
 *
 * `follow.subagents` tells the followers of a session that a `subagent.list` row of theirs
 * appeared or changed activity: a subagent child attached to the store (spawned, or resumed) or
 * detached (settled) — `running` in a listing means exactly "attached here". It is sent from the
 * store's change, which comes after the durable write it reports: a child is created durably
 * (header, descriptor) before it attaches, and flushed before it detaches; so a `subagent.list`
 * the client sends on receipt sees the change. It goes through the follower's ordered queue (held
 * until the snapshot is out, like every frame). A deeper descendant's change is told up the chain
 * while the sessions between are live here (a cold ancestor's header would cost a read).
 *
 * With several hosts on one database (`services.coordination`), a session not live here may be
 * written by another host: its fanout then has a `RemoteTail`, which reads what the followers miss
 * from persistence on every append announcement and sends it through the same event path. The
 * local path is unchanged; when the session attaches here the tail is dropped, when it detaches a
 * new one takes over.
 */
export class FollowHub {
  readonly #services: ServedServices;
  readonly #maxQueuedBytes: number;
  readonly #fanouts = new Map<SessionId, Fanout>();
  readonly #byId = new Map<string, Follow>();
  readonly #disposers: (() => void)[] = [];
  /** Work to run when a follow ends (e.g. releasing the agent an interactive follow promoted). */
  readonly #onStop = new Map<string, () => void>();
  readonly #pacing: DraftPacing;
  /**
   * Why a session stopped on a failed durable write, kept after its live session detached (the
   * controller evicts a stopped agent) until the session is attached again — reopened from disk by
   * the next command. Every `follow.state` of it says so meanwhile, to its followers and to a new one.
   */
  readonly #stoppedSessions = new Map<SessionId, FollowStopped>();
  #generation = 0;
  #nextFollowId = 0;

  constructor(
    services: ServedServices,
    maxQueuedBytes: number,
    pacing: DraftPacing = { intervalMs: DRAFT_INTERVAL_MS, clock: realDraftClock },
  ) {
    this.#services = services;
    this.#maxQueuedBytes = maxQueuedBytes;
    this.#pacing = pacing;
    this.#disposers.push(
      services.store.subscribe((change) => {
        this.#subagentsChanged(change.session);
        // Followed or not: a stop outlives the detach, an attach (a reopen) ends it.
        this.#rememberStop(change.session);
        const fanout = this.#fanouts.get(change.session.id);
        if (fanout === undefined) return;
        if (change.kind === 'attached') this.#attach(fanout, change.session);
        else if (fanout.session === change.session) this.#detach(fanout);
      }),
      services.registry.onChanged((sessionId, key, value, seq) =>
        this.#projection(sessionId, key, value, seq),
      ),
    );
    if (services.agents !== undefined) {
      this.#disposers.push(services.agents.onBusyChange((id, busy) => this.#state(id, busy)));
      const drafts = services.agents.onDraft?.((id, step, text) => this.#draft(id, step, text));
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
    for (const fanout of this.#fanouts.values()) {
      fanout.unsubscribe?.();
      fanout.remote?.close();
      fanout.drafts?.cancel();
    }
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
    const follow: Follow = {
      followId,
      generation,
      sessionId,
      out,
      nextSeq: observation.cursor,
      opened: false,
      held: [],
      stopped: false,
    };
    this.#byId.set(followId, follow);
    let fanout = this.#fanouts.get(sessionId);
    if (fanout === undefined) {
      fanout = {
        followers: new Set(),
        session: undefined,
        unsubscribe: undefined,
        remote: undefined,
        drafts: undefined,
      };
      this.#fanouts.set(sessionId, fanout);
    }
    fanout.followers.add(follow);
    const live = this.#services.store.get(sessionId);
    if (live !== undefined && fanout.session !== live) this.#attach(fanout, live);
    // Appends between the observation's cut and now reach this follower as its first frame.
    else if (live !== undefined) {
      this.#backfill(follow, live);
      // A new follower of a stopped session hears why (an attach above tells every follower).
      if (live.writeFailure !== undefined)
        this.#queue(follow, this.#stateFrame(follow, true, this.#isBusy(live.id), stoppedBy(live)));
    } else {
      const stopped = this.#stoppedSessions.get(sessionId);
      if (stopped !== undefined) this.#queue(follow, this.#stateFrame(follow, false, false, stopped));
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
      busy: live !== undefined && (this.#services.agents?.isBusy(sessionId) ?? false),
    };
  }

  /** The snapshot is on the wire: release held frames in order. */
  open(followId: string): void {
    const follow = this.#byId.get(followId);
    if (follow === undefined || follow.opened) return;
    follow.opened = true;
    for (const text of follow.held.splice(0)) this.#send(follow, text);
  }

  /** Runs `release` when the follow ends — at once if it already has. */
  onStop(followId: string, release: () => void): void {
    if (this.#byId.has(followId)) this.#onStop.set(followId, release);
    else release();
  }

  stop(followId: string): boolean {
    const follow = this.#byId.get(followId);
    if (follow === undefined) return false;
    this.#remove(follow);
    return true;
  }

  /** Drops every follow of a closed connection. */
  dropConnection(out: Outbound): void {
    for (const follow of [...this.#byId.values()]) if (follow.out === out) this.#remove(follow);
  }

  #remove(follow: Follow): void {
    follow.stopped = true;
    this.#byId.delete(follow.followId);
    const release = this.#onStop.get(follow.followId);
    this.#onStop.delete(follow.followId);
    release?.();
    const fanout = this.#fanouts.get(follow.sessionId);
    if (fanout === undefined) return;
    fanout.followers.delete(follow);
    if (fanout.followers.size === 0) {
      fanout.unsubscribe?.();
      fanout.remote?.close();
      fanout.drafts?.cancel();
      this.#fanouts.delete(follow.sessionId);
    }
  }

  #attach(fanout: Fanout, session: Session): void {
    this.#rememberStop(session);
    fanout.remote?.close();
    fanout.remote = undefined;
    fanout.unsubscribe?.();
    fanout.session = session;
    const stopEvents = session.subscribe((batch) => this.#events(fanout, batch));
    // A session that already stopped says so in the state frames below.
    const stopFailures =
      session.writeFailure === undefined
        ? session.onWriteFailure(() => this.#stopped(fanout, session))
        : () => undefined;
    fanout.unsubscribe = () => {
      stopEvents();
      stopFailures();
    };
    for (const follow of fanout.followers) this.#backfill(follow, session);
    for (const follow of fanout.followers)
      this.#queue(follow, this.#stateFrame(follow, true, this.#isBusy(session.id), stoppedBy(session)));
  }

  /** The live session stopped on a failed durable write: say so to every follower. */
  #stopped(fanout: Fanout, session: Session): void {
    this.#rememberStop(session);
    if (fanout.session !== session) return;
    // A draft held by the pacing would reach followers after `stopped`.
    fanout.drafts?.cancel();
    fanout.drafts = undefined;
    for (const follow of fanout.followers)
      this.#queue(follow, this.#stateFrame(follow, true, this.#isBusy(session.id), stoppedBy(session)));
  }

  /** A session attached with no write failure was reopened: it no longer stops. */
  #rememberStop(session: Session): void {
    const stopped = stoppedBy(session);
    if (stopped === undefined) this.#stoppedSessions.delete(session.id);
    else this.#stoppedSessions.set(session.id, stopped);
  }

  #isBusy(id: SessionId): boolean {
    return this.#services.agents?.isBusy(id) ?? false;
  }

  #detach(fanout: Fanout): void {
    fanout.drafts?.cancel();
    fanout.unsubscribe?.();
    fanout.unsubscribe = undefined;
    const session = fanout.session;
    fanout.session = undefined;
    const stopped = session === undefined ? undefined : this.#stoppedSessions.get(session.id);
    for (const follow of fanout.followers)
      this.#queue(follow, this.#stateFrame(follow, false, false, stopped));
    // Cold here again: another host may take the session over and write.
    if (session !== undefined) this.#followRemote(fanout, session, undefined);
  }

  /** Starts (or nudges) the fanout's remote tail; a catch-up read covers appends before the subscription. */
  #followRemote(
    fanout: Fanout,
    identity: RemoteIdentity & { readonly header: { readonly id: SessionId } },
    knownValues: Readonly<Record<string, unknown>> | undefined,
  ): void {
    const coordination = this.#services.coordination;
    if (coordination === undefined) return;
    const id = identity.header.id;
    fanout.remote ??= new RemoteTail(
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
        nextSeq: () => {
          let lowest: number | undefined;
          for (const follow of fanout.followers)
            if (lowest === undefined || follow.nextSeq < lowest) lowest = follow.nextSeq;
          return lowest;
        },
        active: () => fanout.session === undefined && this.#fanouts.get(id) === fanout,
        events: (batch) => this.#events(fanout, batch),
        projection: (key, value, seq) => this.#projection(id, key, value, seq),
        resync: (reason) => {
          for (const follow of [...fanout.followers]) this.#resync(follow, reason);
        },
      },
      (error) =>
        this.#services.logger.error('following a session across hosts failed', {
          sessionId: id,
          error,
        }),
    );
    fanout.remote.pull();
  }

  /** `session` (a subagent child) attached or detached: tell the followers of its live ancestors. */
  #subagentsChanged(session: Session): void {
    for (const id of subagentAncestors(
      session.header,
      (parent) => this.#services.store.get(parent)?.header,
    )) {
      const fanout = this.#fanouts.get(id);
      if (fanout === undefined) continue;
      for (const follow of fanout.followers)
        this.#queue(
          follow,
          `{"jsonrpc":"2.0","method":"follow.subagents","params":{"followId":"${follow.followId}","generation":${follow.generation}}}`,
        );
    }
  }

  #backfill(follow: Follow, session: Session): void {
    if (session.cursor > follow.nextSeq) {
      const missing = session.events.slice(follow.nextSeq);
      this.#deliverEvents(follow, missing, JSON.stringify(missing));
    }
  }

  #events(fanout: Fanout, batch: readonly SessionEvent[]): void {
    // The step's message (or its closing) is the authority now: a draft after it would be stale.
    if (batch.some((event) => STEP_SETTLING.has(event.type))) fanout.drafts?.cancel();
    const json = JSON.stringify(batch);
    for (const follow of fanout.followers) this.#deliverEvents(follow, batch, json);
  }

  #deliverEvents(follow: Follow, batch: readonly SessionEvent[], json: string): void {
    const first = batch[0]?.seq;
    if (first === undefined) return;
    const last = first + batch.length;
    if (last <= follow.nextSeq) return; // already delivered (a backfill overlapped)
    if (first !== follow.nextSeq) {
      // A slice keeps seqs contiguous for this follower; the shared JSON no longer fits it.
      const slice = batch.slice(follow.nextSeq - first);
      if (follow.nextSeq < first) return this.#resync(follow, 'gap');
      return this.#deliverEvents(follow, slice, JSON.stringify(slice));
    }
    follow.nextSeq = last;
    this.#queue(
      follow,
      `{"jsonrpc":"2.0","method":"follow.events","params":{"followId":"${follow.followId}","generation":${follow.generation},"events":${json}}}`,
    );
  }

  #projection(sessionId: SessionId, key: string, value: unknown, seq: number): void {
    const fanout = this.#fanouts.get(sessionId);
    if (fanout === undefined) return;
    const tail = `,"key":${JSON.stringify(key)},"value":${JSON.stringify(value) ?? 'null'},"seq":${seq}}}`;
    for (const follow of fanout.followers) {
      this.#queue(
        follow,
        `{"jsonrpc":"2.0","method":"follow.projection","params":{"followId":"${follow.followId}","generation":${follow.generation}${tail}`,
      );
    }
  }

  /** A draft of `sessionId`'s running step, from its agent here; paced per session. */
  #draft(sessionId: SessionId, step: number, text: string): void {
    const fanout = this.#fanouts.get(sessionId);
    // A stopped session's step will never be written: what its model still streams until the
    // turn's abort lands is not shown.
    if (fanout?.session === undefined || fanout.session.writeFailure !== undefined) return;
    fanout.drafts ??= new DraftThrottle(
      (paced, latest) => this.#sendDraft(fanout, paced, latest),
      this.#pacing.intervalMs,
      this.#pacing.clock,
    );
    fanout.drafts.offer(step, text);
  }

  #sendDraft(fanout: Fanout, step: number, text: string): void {
    const tail = `,"step":${step},"text":${JSON.stringify(text)}}}`;
    for (const follow of fanout.followers) {
      // Only a follower that holds the step/start: a draft never points past what it was sent.
      if (follow.nextSeq <= step) continue;
      this.#queue(
        follow,
        `{"jsonrpc":"2.0","method":"follow.draft","params":{"followId":"${follow.followId}","generation":${follow.generation}${tail}`,
      );
    }
  }

  #state(sessionId: SessionId, busy: boolean): void {
    const fanout = this.#fanouts.get(sessionId);
    if (fanout === undefined) return;
    const session = fanout.session;
    for (const follow of fanout.followers)
      this.#queue(
        follow,
        this.#stateFrame(
          follow,
          session !== undefined,
          busy,
          session === undefined ? this.#stoppedSessions.get(sessionId) : stoppedBy(session),
        ),
      );
  }

  #stateFrame(follow: Follow, live: boolean, busy: boolean, stopped?: FollowStopped): string {
    return JSON.stringify({
      jsonrpc: '2.0',
      method: 'follow.state',
      params: {
        followId: follow.followId,
        generation: follow.generation,
        live,
        busy,
        ...defined({ stopped }),
      },
    });
  }

  #queue(follow: Follow, text: string): void {
    if (follow.stopped) return;
    if (!follow.opened) {
      follow.held.push(text);
      return;
    }
    this.#send(follow, text);
  }

  #send(follow: Follow, text: string): void {
    if (!follow.out.open) return this.#remove(follow);
    if (follow.out.bufferedAmount > this.#maxQueuedBytes) return this.#resync(follow, 'slow-consumer');
    follow.out.send(text);
  }

  #resync(follow: Follow, reason: string): void {
    const frame = JSON.stringify({
      jsonrpc: '2.0',
      method: 'follow.resync',
      params: { followId: follow.followId, generation: follow.generation, reason },
    });
    this.#remove(follow);
    if (follow.out.open) follow.out.send(frame);
  }
}

/** Events after which the running step's draft is settled: its message, or the step/turn closing. */
const STEP_SETTLING = new Set(['assistant/message', 'step/end', 'turn/end']);

/**
 * The `stopped` of a state frame: present once the session's durable write failed. The message
 * names the OS error code (ENOSPC, EACCES, EIO…) when there is one, never a path.
 */
function stoppedBy(session: Session): FollowStopped | undefined {
  const failure = session.writeFailure;
  if (failure === undefined) return undefined;
  const os = osErrorCode(failure);
  return {
    code: 'SESSION_WRITE_FAILED',
    message: os === undefined ? failure.message : `${failure.message} (${os})`,
  };
}

function osErrorCode(error: unknown): string | undefined {
  let found: string | undefined;
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) found = code;
  }
  return found;
}
