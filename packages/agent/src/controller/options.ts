import type { SessionPersistence, SessionPreparations } from '@strand/persistence';
import type { ProjectionRegistry } from '@strand/projection';
import type { SessionQuery } from '@strand/query';
import type { SessionHeader, SessionId, SessionSeq, SessionStore } from '@strand/session';
import type { ListingCache } from '@strand/subagent';
import type { Agent, AgentStatus } from '../agent.js';
import type { Model, ModelResolver, ModelRoute } from '../model/model.js';
import type { SessionOwnership } from './ownership.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { Logger } from '@strand/session';

export interface AgentControllerOptions {
  readonly persistence: SessionPersistence;
  /** The preparation layer over `persistence`: promotion publishes through it (no second read). */
  readonly preparations: SessionPreparations;
  readonly store: SessionStore;
  /** Must follow `store` (a `SessionQuery` binds it): titles and model selection are read from it. */
  readonly registry: ProjectionRegistry;
  readonly query: SessionQuery;
  /**
   * The projection cache's write policy (`CacheWritePolicy`). It writes rows by itself at turn end
   * and on detach; given here, a detach also waits for its row, so `whenSettled()` covers it.
   */
  readonly cacheWrites?: { drain(): Promise<void> };
  /** A model for every session, or a resolver called once per turn (every step uses it). Default: `ScriptedModel`. */
  readonly model?: Model | ModelResolver;
  /** The projection cache, read (never written) by `list_agents` to skip cold reads. */
  readonly cache?: ListingCache;
  /**
   * The tools a turn offers, or a choice per turn from the session's preset. Default: `spawn_agent`,
   * `send_message`, `list_agents` over this controller's services (`subagentTools`).
   */
  readonly tools?: ToolRegistry | ((context: TurnSetup) => ToolRegistry);
  /** The system message, if any, or a choice per turn from the session's preset. */
  readonly instructions?: string | ((context: TurnSetup) => string | undefined);
  /** Model steps per turn before it ends `error` `AGENT_STEP_LIMIT` (default 16). */
  readonly maxSteps?: number;
  /** Deepest `delegationDepth` a child may have (default 3). */
  readonly maxDelegationDepth?: number;
  /**
   * Cross-host ownership (a lease per session in a shared database). Taken before an agent is
   * attached, given back when it detaches; losing it stops the agent. Default: `LOCAL_OWNERSHIP`.
   */
  readonly ownership?: SessionOwnership;
  /** How long a settled agent stays attached before it detaches (default 0: at once). */
  readonly idleDetachMs?: number;
  /** The timers of that grace period (default: the process's, unref'd); tests pass a manual clock. */
  readonly timers?: GraceTimers;
  readonly newSessionId?: () => SessionId;
  readonly now?: () => number;
  /** Failures nobody awaits (a flush before detach, a title append). Default: `logger`. */
  readonly reportError?: (error: unknown) => void;
  /** Default: `silentLogger`. */
  readonly logger?: Logger;
}

/** What a turn's tools and instructions may depend on, read when the turn starts. */
export interface TurnSetup {
  readonly header: SessionHeader;
  /** The `agentPreset` projection: the header's preset, then the last `agent-preset/select`; null for none. */
  readonly preset: string | null;
}

export interface CreateSessionOptions {
  readonly id?: SessionId;
  readonly cwd?: string;
  readonly agentPreset?: string | null;
  /** Appended as `model/selection` (a person's choice) before the session is attached. */
  readonly model?: ModelRoute;
}

export interface ActivateOptions {
  readonly signal?: AbortSignal;
}

export type AgentChange =
  | { readonly kind: 'attached'; readonly agent: Agent }
  | { readonly kind: 'status'; readonly agent: Agent; readonly status: AgentStatus }
  | { readonly kind: 'detached'; readonly agent: Agent }
  /** The running step's text so far (see `AgentEvent` `draft`); transient, never persisted. */
  | { readonly kind: 'draft'; readonly agent: Agent; readonly step: SessionSeq; readonly text: string };

export const DEFAULT_MAX_STEPS = 16;

/** The timers a grace period is measured with (`setTimeout`'s pair, injectable). */
export interface GraceTimers {
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
