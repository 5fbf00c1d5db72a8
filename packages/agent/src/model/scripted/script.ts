import type { ModelRequest } from '../model.js';

/** One scripted response. */
export interface ScriptStep {
  readonly text?: string;
  /** Tool calls; `arguments` is JSON-encoded unless it already is a string. */
  readonly toolCalls?: readonly { readonly name: string; readonly arguments?: unknown }[];
  /** Reported usage; by default estimated from the characters in and out (4 per token). */
  readonly usage?: { readonly input: number; readonly output: number };
  /** Fail the request instead of answering (after streaming `text`, if any). */
  readonly fail?: {
    readonly code: 'AGENT_MODEL_FAILED' | 'AGENT_MODEL_INTERRUPTED';
    readonly message: string;
  };
  /** Stream `text`, then wait until the request is cancelled (tests of cancellation). */
  readonly hang?: boolean;
}

/** A script entry: a fixed step, or one computed from the request. */
export type ScriptEntry = ScriptStep | ((request: ModelRequest) => ScriptStep);
