import type { MessageContent, Session, SessionId } from '@strand/session';
import type { Agent, AgentEvent, AgentLease, AgentStatus, PromptOptions, TurnOutcome } from '../agent.js';
import { AgentError } from '../errors.js';
import { runTurn, type RunningTurn, type TurnDeps, type TurnInput } from '../turn/run-turn.js';

/**
 * Decides what a turn runs with (model, tools, instructions, and the hooks the turn reports
 * through) before it starts; throws an `AgentError` to refuse the turn while nothing is appended
 * and the agent is still idle.
 */
export type TurnPlanner = (agent: LiveAgent, options: PromptOptions) => TurnDeps;

/** What the controller gives its agents. */
export interface AgentRuntime {
  readonly planTurn: TurnPlanner;
  /** The agent's status or leases changed: it may have settled. */
  changed(agent: LiveAgent, status: AgentStatus | undefined): void;
  reportError(error: unknown): void;
}

/**
 * The controller's agent. `start` is the runtime's way in (a person's prompt or a parent's
 * message); the public `Agent` surface refuses to drive a child session.
 */
export class LiveAgent implements Agent {
  readonly session: Session;
  readonly isChild: boolean;
  readonly #runtime: AgentRuntime;
  readonly #listeners = new Set<(event: AgentEvent) => void>();
  #status: AgentStatus = 'idle';
  #attached = true;
  #leases = 0;
  /** The running turn's own cancel, and its outcome. */
  #abort: AbortController | undefined;
  #outcome: Promise<TurnOutcome> | undefined;
  /** Bumped by every status or lease change; a settle attempt that sees it move gives up. */
  activity = 0;

  constructor(session: Session, runtime: AgentRuntime) {
    this.session = session;
    this.isChild = session.header.origin === 'subagent';
    this.#runtime = runtime;
  }

  get id(): SessionId {
    return this.session.id;
  }
  get status(): AgentStatus {
    return this.#status;
  }
  get attached(): boolean {
    return this.#attached;
  }
  get leases(): number {
    return this.#leases;
  }

  prompt(message: MessageContent, options: PromptOptions = {}): Promise<TurnOutcome> {
    try {
      if (this.isChild) {
        throw new AgentError(
          'AGENT_CHILD_SESSION',
          `session ${this.id} is a subagent child: only its parent drives it`,
          { sessionId: this.id },
        );
      }
      return this.start({ content: message, author: 'human' }, options).outcome;
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * Starts a turn, or throws synchronously (`AGENT_DETACHED`, `AGENT_BUSY`, the plan's refusals)
   * so a caller knows at once whether it was accepted. The status is `running` before this returns
   * and `idle` once the turn's outcome is settled; `running()` is that outcome meanwhile.
   */
  start(input: TurnInput, options: PromptOptions = {}): RunningTurn {
    if (!this.#attached)
      throw new AgentError(
        'AGENT_DETACHED',
        `the agent of ${this.id} has detached; activate the session again`,
        { sessionId: this.id },
      );
    if (this.#status === 'running')
      throw new AgentError('AGENT_BUSY', `session ${this.id} is already running a turn`, {
        sessionId: this.id,
      });
    const deps = this.#runtime.planTurn(this, options);
    const own = new AbortController();
    this.#abort = own;
    this.#setStatus('running');
    const { signal } = options;
    const turn = runTurn(
      deps,
      input,
      signal === undefined ? own.signal : AbortSignal.any([own.signal, signal]),
    );
    const outcome = turn.outcome.finally(() => {
      this.#abort = undefined;
      this.#outcome = undefined;
      this.#setStatus('idle');
    });
    this.#outcome = outcome;
    return { started: turn.started, outcome };
  }

  /** The running turn's outcome (settled once the agent is idle again), if a turn runs. */
  running(): Promise<TurnOutcome> | undefined {
    return this.#outcome;
  }

  cancel(reason = 'cancelled'): boolean {
    if (this.#abort === undefined || this.#abort.signal.aborted) return false;
    this.#abort.abort(new AgentError('AGENT_CANCELLED', reason, { sessionId: this.id }));
    return true;
  }

  retain(): AgentLease {
    if (!this.#attached)
      throw new AgentError(
        'AGENT_DETACHED',
        `the agent of ${this.id} has detached; activate the session again`,
        { sessionId: this.id },
      );
    this.#leases++;
    this.activity++;
    let released = false;
    return {
      agent: this,
      release: () => {
        if (released) return;
        released = true;
        this.#leases--;
        this.activity++;
        this.#runtime.changed(this, undefined);
      },
    };
  }

  subscribe(listener: (event: AgentEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: AgentEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#runtime.reportError(error);
      }
    }
  }

  /** Called by the controller once the session left the store. */
  markDetached(): void {
    this.#attached = false;
    this.activity++;
    this.emit({ kind: 'detached' });
    this.#listeners.clear();
  }

  #setStatus(status: AgentStatus): void {
    this.#status = status;
    this.activity++;
    this.emit({ kind: 'status', status });
    this.#runtime.changed(this, status);
  }
}
