import type { MessageContent, Session, SessionId, SessionSeq, TurnEndReason } from '@strand/session';
import type { AgentError } from './errors.js';
import type { ModelRoute } from './model/model.js';

export type AgentStatus = 'running' | 'idle';

export interface PromptOptions {
  /** Cancels this turn when aborted (as `cancel()` does). */
  readonly signal?: AbortSignal;
  /**
   * Runs this turn on this route whatever the session selected (the demo ticker pins the scripted
   * model). Its requests consume a pending selection like any other request.
   */
  readonly model?: ModelRoute;
}

/** How a turn ended; it mirrors the turn's `turn/end` event. */
export interface TurnOutcome {
  readonly reason: TurnEndReason;
  /** The last assistant text of the turn (`''` if the model wrote none). */
  readonly text: string;
  /** Why the turn did not complete (`aborted`: `AGENT_CANCELLED`). */
  readonly error?: AgentError;
  /** The seq of the turn's `turn/start`, when it was appended. */
  readonly turnStartSeq?: SessionSeq;
}

/** What an agent tells its subscribers; none of it is persisted except through the session. */
export type AgentEvent =
  | { readonly kind: 'status'; readonly status: AgentStatus }
  /**
   * The assistant text of the running step so far (accumulated, not a delta); `step` is the seq
   * of its durable `step/start`. Transient: the step's `assistant/message` is the authority.
   */
  | { readonly kind: 'draft'; readonly step: SessionSeq; readonly text: string }
  /** The session went cold; this agent is finished. */
  | { readonly kind: 'detached' };

/** Keeps an agent attached while it is idle; `release` is idempotent. */
export interface AgentLease {
  readonly agent: Agent;
  release(): void;
}

/**
 * One live session with a model behind it. An agent is attached while it runs a turn or somebody
 * holds a lease on it; once it is idle with no lease it settles: persistence is flushed, the
 * session is detached from the store (it becomes cold) and the agent is finished (`attached`
 * false) — activate the session again to continue it.
 */
export interface Agent {
  readonly id: SessionId;
  readonly session: Session;
  readonly status: AgentStatus;
  readonly attached: boolean;
  /** True for an `origin: 'subagent'` session: only its parent drives it, `prompt` is refused. */
  readonly isChild: boolean;
  /**
   * Runs one turn with `message` as a person's `user/message`; resolves when the turn has ended
   * (model and tool failures end it and resolve, they do not reject). Rejects `AGENT_BUSY`,
   * `AGENT_CHILD_SESSION`, `AGENT_DETACHED`, and — before anything is appended —
   * `AGENT_MODEL_UNAVAILABLE` / `AGENT_PRESET_UNAVAILABLE` when the session's model or preset is
   * not one this host has.
   */
  prompt(message: MessageContent, options?: PromptOptions): Promise<TurnOutcome>;
  /** Cancels the running turn (it ends `aborted`); false when no turn is running. */
  cancel(reason?: string): boolean;
  retain(): AgentLease;
  subscribe(listener: (event: AgentEvent) => void): () => void;
}
