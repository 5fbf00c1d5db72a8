import { randomUUID } from 'node:crypto';
import type { SessionPersistence, SessionPreparations } from '@strand/persistence';
import type { ProjectionRegistry } from '@strand/projection';
import { isSessionQueryError, type SessionObservation, type SessionQuery } from '@strand/query';
import {
  assertWritableSession,
  newSessionHeader,
  reportTo,
  SessionError,
  silentLogger,
  SessionId,
  type MessageContent,
  type Session,
  type SessionStore,
  defined,
} from '@strand/session';
import type { Agent, AgentLease, AgentStatus, PromptOptions, TurnOutcome } from '../agent.js';
import { AgentError } from '../errors.js';
import { routeData } from '../model/route-data.js';
import { ScriptedModel } from '../model/scripted/scripted-model.js';
import { DEFAULT_MAX_DELEGATION_DEPTH } from '../subagent-control.js';
import { subagentTools } from '../tools/subagent-tools.js';
import type { RunningTurn } from '../turn/run-turn.js';
import { childRuntimeFor, type ChildRuntimeHost } from './child-runtime.js';
import { nonNegativeInteger, positiveInteger } from './config-checks.js';
import { LiveAgent, type AgentRuntime } from './live-agent.js';
import { LOCAL_OWNERSHIP, type SessionOwnership } from './ownership.js';
import {
  DEFAULT_MAX_STEPS,
  type ActivateOptions,
  type AgentChange,
  type AgentControllerOptions,
  type CreateSessionOptions,
} from './options.js';
import { publishObserved } from './publication.js';
import { Settler } from './settler.js';
import { turnPlanner } from './turn-planner.js';
import { createStoredSession } from './stored-session.js';

/**
 * The session controller (docs/architecture.md, "The layers, as folders"): the one place agents are attached to sessions and
 * detached from them.
 *
 * - Activation: `create` (a new session), `promote` (a cold session a follower observed, published
 *   without a second read), `activate` (any ordinary session by id). Each returns a lease.
 * - An agent settles when it is idle and nobody holds a lease (`Settler`): persistence is flushed,
 *   the session is detached from the store (the cache write policy writes its row), the agent ends.
 * - Children (`origin: 'subagent'`) are refused here; they are created and continued only through
 *   the `spawn_agent` / `send_message` tools of their parent's agent (`childRuntimeFor`).
 * - Turns are not run here: each agent runs its own (`LiveAgent.start`) with what `turnPlanner`
 *   decides when the turn starts.
 */
export class AgentController {
  readonly #persistence: SessionPersistence;
  readonly #preparations: SessionPreparations;
  readonly #store: SessionStore;
  readonly #registry: ProjectionRegistry;
  readonly #query: SessionQuery;
  readonly #cacheWrites: { drain(): Promise<void> } | undefined;
  readonly #now: () => number;
  readonly #newSessionId: () => SessionId;
  readonly #reportError: (error: unknown) => void;
  readonly #agents = new Map<SessionId, LiveAgent>();
  readonly #activating = new Map<SessionId, Promise<LiveAgent>>();
  readonly #listeners = new Set<(change: AgentChange) => void>();
  readonly #pending = new Set<Promise<unknown>>();
  readonly #runtime: AgentRuntime;
  readonly #children: ChildRuntimeHost;
  readonly #settler: Settler;
  readonly #ownership: SessionOwnership;
  /**
   * Agents whose session ownership was lost, or whose session stopped on a failed durable write:
   * they detach as soon as their turn has ended, so the next command reopens the log from disk.
   */
  readonly #evicted = new WeakSet<LiveAgent>();
  readonly #stopOwnershipWatch: () => void;
  #closed = false;

  constructor(options: AgentControllerOptions) {
    this.#persistence = options.persistence;
    this.#preparations = options.preparations;
    this.#store = options.store;
    this.#registry = options.registry;
    this.#query = options.query;
    this.#cacheWrites = options.cacheWrites;
    this.#now = options.now ?? Date.now;
    this.#newSessionId = options.newSessionId ?? (() => SessionId(randomUUID()));
    this.#reportError =
      options.reportError ?? reportTo(options.logger ?? silentLogger, 'an agent failure nobody awaited');
    this.#ownership = options.ownership ?? LOCAL_OWNERSHIP;
    this.#stopOwnershipWatch = this.#ownership.onLost((id) => this.#ownershipLost(id));
    this.#children = {
      persistence: this.#persistence,
      query: this.#query,
      maxDepth: nonNegativeInteger(
        options.maxDelegationDepth ?? DEFAULT_MAX_DELEGATION_DEPTH,
        'maxDelegationDepth',
      ),
      newSessionId: this.#newSessionId,
      now: this.#now,
      assertOpen: () => this.#assertOpen(),
      attach: (session) => this.#attach(session),
      owned: (id, work) => this.#owned(id, work),
      adopt: (observation) => this.#adopt(observation),
    };
    this.#runtime = {
      planTurn: turnPlanner({
        registry: options.registry,
        model: options.model ?? new ScriptedModel(),
        tools:
          options.tools ??
          subagentTools({
            listing: {
              sessionProjections: options.registry,
              sessions: options.store,
              sessionQuery: options.query,
              ...defined({ sessionProjectionCache: options.cache }),
            },
          }),
        instructions: options.instructions,
        maxSteps: positiveInteger(options.maxSteps ?? DEFAULT_MAX_STEPS, 'maxSteps'),
        childRuntime: (agent) => childRuntimeFor(this.#children, agent),
        onDraft: (agent, step, text) => this.#emit({ kind: 'draft', agent, step, text }),
        reportError: this.#reportError,
      }),
      changed: (agent, status) => this.#changed(agent, status),
      reportError: this.#reportError,
    };
    this.#settler = new Settler({
      idleDetachMs: nonNegativeInteger(options.idleDetachMs ?? 0, 'idleDetachMs'),
      ...defined({ timers: options.timers }),
      flush: () => this.#flush(),
      detach: (agent) => this.#detach(agent),
      cacheWrites: this.#cacheWrites,
      isClosed: () => this.#closed,
    });
  }

  /** The attached agent of a session, if this controller has one. */
  agent(id: SessionId): Agent | undefined {
    return this.#agents.get(id);
  }

  agents(): Agent[] {
    return [...this.#agents.values()];
  }

  /** `running` / `idle` for an attached agent, undefined when the session has none here. */
  status(id: SessionId): AgentStatus | undefined {
    return this.#agents.get(id)?.status;
  }

  /** Agent attached, status changed, agent detached — for every agent of this controller. */
  onChange(listener: (change: AgentChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Creates an ordinary session (persisted, live in the store) with an idle agent. */
  async create(options: CreateSessionOptions = {}): Promise<AgentLease> {
    this.#assertOpen();
    const header = newSessionHeader({
      id: options.id ?? this.#newSessionId(),
      createdAt: this.#now(),
      ...defined({ cwd: options.cwd, agentPreset: options.agentPreset }),
    });
    const agent = await this.#owned(header.id, async () => {
      const session = await createStoredSession(this.#persistence, {
        header,
        ...(options.model === undefined
          ? {}
          : { firstEvents: [{ type: 'model/selection', data: routeData(options.model) }] }),
      });
      return this.#attach(session);
    });
    return agent.retain();
  }

  /**
   * Promotes the cold session a follower observed: reserves and publishes its prepared log through
   * the preparation layer (no second read) and attaches an agent. Takes ownership of the
   * observation's lease and disposes it in every outcome. A session already live here gives a
   * lease on its agent. Refuses `AGENT_CHILD_SESSION`, `AGENT_PROMOTION_UNPREPARED`,
   * `AGENT_PROMOTION_STALE`, `AGENT_SESSION_LIVE_ELSEWHERE`.
   */
  async promote(observation: SessionObservation): Promise<AgentLease> {
    try {
      this.#assertOpen();
      refuseChild(observation.header);
      return (await this.#adopt(observation)).retain();
    } finally {
      observation.dispose();
    }
  }

  /** A lease on an ordinary session's agent, promoting the session from persistence if it is cold. */
  async activate(id: SessionId, options: ActivateOptions = {}): Promise<AgentLease> {
    this.#assertOpen();
    const live = this.#agents.get(id);
    if (live !== undefined) {
      refuseChild(live.session.header);
      return live.retain();
    }
    // Ownership before the read: a session another host owns is refused without reading its log,
    // and the log is read while no other host may write it. The promotion counts its own use.
    await this.#ownership.acquire(id);
    try {
      let observation: SessionObservation;
      try {
        observation = await this.#query.observeSession(id, {
          requirePrepared: true,
          ...defined({ signal: options.signal }),
        });
      } catch (cause) {
        if (isSessionQueryError(cause, 'SESSION_QUERY_NOT_FOUND'))
          throw new AgentError('AGENT_SESSION_NOT_FOUND', `no session ${id}`, { cause, sessionId: id });
        if (isSessionQueryError(cause, 'SESSION_QUERY_ABORTED'))
          throw new AgentError('AGENT_CANCELLED', `activating ${id} was cancelled`, { cause, sessionId: id });
        throw new AgentError('AGENT_PERSISTENCE_FAILED', `reading session ${id} failed`, {
          cause,
          sessionId: id,
        });
      }
      return await this.promote(observation);
    } finally {
      this.#releaseOwnership(id);
    }
  }

  /**
   * Activates the session and starts a turn with a person's message. Resolves once the turn is
   * accepted and its prompt is durable (`turn/start` + `user/message` acknowledged by the writer);
   * rejects with the turn's error when even that write failed. `outcome` resolves when the turn
   * ends. The lease taken here is released when the turn ends.
   */
  async prompt(
    id: SessionId,
    message: MessageContent,
    options: PromptOptions = {},
  ): Promise<{ agent: Agent; outcome: Promise<TurnOutcome> }> {
    const lease = await this.activate(id, options);
    const agent = lease.agent as LiveAgent;
    let turn: RunningTurn;
    try {
      turn = agent.start({ content: message, author: 'human' }, options);
    } catch (error) {
      lease.release();
      throw error;
    }
    void turn.outcome.finally(() => lease.release());
    if ((await turn.started) === undefined) {
      const ended = await turn.outcome;
      throw (
        ended.error ??
        new AgentError('AGENT_PERSISTENCE_FAILED', `the prompt to session ${id} was not stored`, {
          sessionId: id,
        })
      );
    }
    return { agent, outcome: turn.outcome };
  }

  /** Cancels the running turn of a session's agent; false when none is running here. */
  cancel(id: SessionId, reason?: string): boolean {
    return this.#agents.get(id)?.cancel(reason) ?? false;
  }

  /**
   * Resolves when no turn runs and no detach is pending — including agents waiting out
   * `idleDetachMs` (tests, orderly shutdown).
   */
  async whenSettled(): Promise<void> {
    for (;;) {
      const running = [...this.#agents.values()].flatMap((agent) => agent.running() ?? []);
      if (this.#pending.size === 0 && running.length === 0) return;
      await Promise.allSettled([...this.#pending, ...running]);
    }
  }

  /** Cancels running turns, detaches every agent (flushing first) and refuses further activations. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#stopOwnershipWatch();
    this.#settler.wakeAll();
    for (const agent of this.#agents.values()) agent.cancel('the agent controller is closing');
    await this.whenSettled();
    await this.#flush();
    for (const agent of [...this.#agents.values()]) this.#detach(agent);
    await this.whenSettled(); // the ownership releases of those detaches
    await this.#cacheWrites?.drain();
  }

  #attach(session: Session, alreadyInStore = false): LiveAgent {
    if (!alreadyInStore) {
      try {
        this.#store.attach(session);
      } catch (cause) {
        if (cause instanceof SessionError && cause.code === 'SESSION_ALREADY_ATTACHED') {
          throw new AgentError('AGENT_SESSION_LIVE_ELSEWHERE', `session ${session.id} is already live`, {
            cause,
            sessionId: session.id,
          });
        }
        throw cause;
      }
    }
    // A no-op when the registry follows the store (SessionQuery binds it); needed otherwise.
    this.#registry.track(session);
    const agent = new LiveAgent(session, this.#runtime);
    session.onWriteFailure((failure) => this.#writeFailed(agent, failure));
    this.#agents.set(session.id, agent);
    this.#emit({ kind: 'attached', agent });
    return agent;
  }

  /** The agent for an observed session: the live one here, one in flight, or a new publication. */
  async #adopt(observation: SessionObservation): Promise<LiveAgent> {
    const id = observation.header.id;
    const live = this.#agents.get(id);
    if (live !== undefined) return live;
    const inFlight = this.#activating.get(id);
    if (inFlight !== undefined) return inFlight;
    if (observation.source === 'live') {
      throw new AgentError(
        'AGENT_SESSION_LIVE_ELSEWHERE',
        `session ${id} is live but not attached by this controller`,
        { sessionId: id },
      );
    }
    // Ownership first: publishing writes the crash-repair closers, and only an owner may write.
    const publication = this.#owned(id, async () =>
      this.#attach(await publishObserved(this.#preparations, this.#store, observation), true),
    );
    this.#activating.set(id, publication);
    try {
      return await publication;
    } finally {
      this.#activating.delete(id);
    }
  }

  #changed(agent: LiveAgent, status: AgentStatus | undefined): void {
    if (status !== undefined) this.#emit({ kind: 'status', agent, status });
    if (this.#evicted.has(agent)) {
      if (agent.status === 'idle') this.#detach(agent);
      return;
    }
    if (this.#settler.canDetach(agent)) this.#track(this.#settler.settle(agent, agent.activity));
  }

  /** Runs `work` (which attaches an agent to `id`) as this host's owner of `id`; gives it back if `work` fails. */
  async #owned<T>(id: SessionId, work: () => Promise<T>): Promise<T> {
    await this.#ownership.acquire(id);
    try {
      return await work();
    } catch (error) {
      this.#releaseOwnership(id);
      throw error;
    }
  }

  #releaseOwnership(id: SessionId): void {
    // Tracked, so `whenSettled()` covers it; a release that fails is reported and the lease expires.
    this.#track(this.#ownership.release(id));
  }

  /**
   * Another host may own the session now: cancel its turn and detach the agent once the turn has
   * closed (at once when idle), whatever leases are held on it — the next activation must take
   * ownership again. Detaching skips the settle flush: appends already resolved are durable.
   */
  #ownershipLost(id: SessionId): void {
    const agent = this.#agents.get(id);
    if (agent === undefined) return;
    this.#reportError(
      new AgentError('AGENT_OWNERSHIP_LOST', `this host lost ownership of session ${id}; its agent stops`, {
        sessionId: id,
      }),
    );
    this.#evicted.add(agent);
    if (agent.status === 'idle') this.#detach(agent);
    else agent.cancel('this host lost ownership of the session');
  }

  /**
   * The session stopped on a failed durable write: its running turn is aborted at once (its model
   * stream stops, so nothing more is drafted; its appends are refused anyway), then the agent
   * detaches once the turn has closed — whatever leases are held — so the next command reads and
   * repairs the log from disk instead of finding a session that accepts nothing.
   */
  #writeFailed(agent: LiveAgent, failure: SessionError): void {
    if (!agent.attached) return;
    this.#reportError(failure);
    this.#evicted.add(agent);
    if (agent.status === 'idle') this.#detach(agent);
    else agent.cancel('its session stopped: its log could not be written');
  }

  async #flush(): Promise<void> {
    try {
      await this.#persistence.flush();
    } catch (error) {
      // The session's own write failure is on the session; detaching does not make it worse.
      this.#reportError(error);
    }
  }

  #detach(agent: LiveAgent): void {
    if (!agent.attached) return;
    this.#agents.delete(agent.id);
    this.#store.detach(agent.session);
    // A no-op when the registry follows the store; otherwise this hands the cache its final row.
    this.#registry.untrack(agent.session);
    agent.markDetached();
    this.#releaseOwnership(agent.id);
    this.#emit({ kind: 'detached', agent });
  }

  #track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.#reportError(error));
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
  }

  #emit(change: AgentChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#reportError(error);
      }
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new AgentError('AGENT_CLOSED', 'the agent controller is closed');
  }
}

function refuseChild(header: Session['header']): void {
  // An imported session is another harness's: no agent of this host appends to it.
  assertWritableSession(header);
  if (header.origin === 'subagent') {
    throw new AgentError(
      'AGENT_CHILD_SESSION',
      `session ${header.id} is a subagent child: only its parent drives it`,
      { sessionId: header.id },
    );
  }
}
