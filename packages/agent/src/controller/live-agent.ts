import type { MessageContent, Session, SessionId } from '@strand/session';
import type { Agent, AgentEvent, AgentLease, AgentStatus, PromptOptions, TurnOutcome } from '../agent.js';
import { AgentError } from '../errors.js';
import type { TurnInput, TurnPlan } from '../turn/run-turn.js';

/** What the controller does for its agents. */
export interface AgentRuntime {
  /**
   * Decides what a turn runs with (tools, instructions, model) before it starts; throws an
   * `AgentError` to refuse the turn while nothing is appended and the agent is still idle.
   */
  planTurn(agent: LiveAgent, options: PromptOptions): TurnPlan;
  /** Runs one turn (and what follows it, e.g. the title); never rejects. */
  runTurn(agent: LiveAgent, input: TurnInput, plan: TurnPlan, signal: AbortSignal): Promise<TurnOutcome>;
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
  #turn: AbortController | undefined;
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
      return this.start({ content: message, author: 'human' }, options);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * Starts a turn, or throws synchronously (`AGENT_DETACHED`, `AGENT_BUSY`, the plan's refusals)
   * so a caller knows at once whether it was accepted. The status is `running` before this returns.
   */
  start(input: TurnInput, options: PromptOptions = {}): Promise<TurnOutcome> {
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
    const plan = this.#runtime.planTurn(this, options);
    const own = new AbortController();
    this.#turn = own;
    this.#setStatus('running');
    const { signal } = options;
    const turnSignal = signal === undefined ? own.signal : AbortSignal.any([own.signal, signal]);
    return this.#runtime.runTurn(this, input, plan, turnSignal).finally(() => {
      this.#turn = undefined;
      this.#setStatus('idle');
    });
  }

  cancel(reason = 'cancelled'): boolean {
    if (this.#turn === undefined || this.#turn.signal.aborted) return false;
    this.#turn.abort(new AgentError('AGENT_CANCELLED', reason, { sessionId: this.id }));
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
