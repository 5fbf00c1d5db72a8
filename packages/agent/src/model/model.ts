import type { ModelRoute } from '@strand/projection';
import type { JsonObject, SessionHeader } from '@strand/session';

export type { ModelRoute };

/** A complete tool call as the model issued it; `arguments` is the raw JSON text. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** The conversation a model sees, rebuilt from the session's events before every request. */
export type ModelMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls: readonly ModelToolCall[] }
  | { readonly role: 'tool'; readonly callId: string; readonly content: string };

/** A tool as the model is told about it: name, description, JSON Schema of the arguments. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
}

export interface ModelRequest {
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ToolSpec[];
  /** Aborted when the turn is cancelled; a model must stop promptly. */
  readonly signal: AbortSignal;
}

/**
 * A response's tokens in the log's meaning (`usageSchema` in `@strand/session`): `input` is fresh,
 * uncached input; cache writes and reads apart; `output` includes `reasoning`.
 */
export interface ModelUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheCreation?: number;
  readonly cacheRead?: number;
  readonly reasoning?: number;
}

export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'other';

export type ModelStreamPart =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'tool-call'; readonly call: ModelToolCall }
  | ({ readonly type: 'usage' } & ModelUsage)
  | { readonly type: 'finish'; readonly reason: FinishReason };

/**
 * The model seam. `stream` answers one request: any number of text deltas and complete tool
 * calls, at most one usage part, then one `finish`. It ends promptly when the request's signal
 * aborts, and fails with an `AgentError`: `AGENT_MODEL_INTERRUPTED` when a started response broke
 * off (the turn ends `interrupted`), `AGENT_MODEL_FAILED` / `AGENT_MODEL_NOT_CONFIGURED` otherwise
 * (the turn ends `error`).
 */
export interface Model {
  /** The route every request of this model uses; recorded as `request/header` before each request. */
  readonly route: ModelRoute;
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}

export interface ModelContext {
  readonly header: SessionHeader;
  /** The route the session's `modelSelection` projection expects next (`pending ?? lastRequest`), if any. */
  readonly selection: ModelRoute | null;
}

/** Picks the model of a session's next turn (called once per turn, when it is planned; every step uses it). */
export type ModelResolver = (context: ModelContext) => Model;
