import type { ModelToolCall } from '../model/model.js';
import type { StepAccumulator } from './step-stream.js';

/** What the turn loop has written so far: enough to close the turn properly when it fails. */
export class TurnState {
  /** Where the loop is; an error of unknown origin is attributed to it. */
  phase: 'append' | 'model' | 'tool' = 'append';
  stepOpen = false;
  /** The step being streamed, until its `assistant/message` is appended. */
  partial: StepAccumulator | undefined;
  /** Calls of the last `assistant/message` that have no `tool/result` yet, in call order. */
  outstanding: ModelToolCall[] = [];
  /** Calls whose `tool/call` was appended. */
  readonly started = new Set<string>();
  /** The text of the last appended `assistant/message`. */
  lastText = '';

  answered(callId: string): void {
    this.outstanding = this.outstanding.filter((call) => call.id !== callId);
  }
}
