import type { SessionEventInput, TurnEndReason } from '@strand/session';
import type { AgentError } from '../errors.js';
import type { TurnState } from './turn-state.js';

export interface TurnEnding {
  readonly reason: Exclude<TurnEndReason, 'completed'>;
  readonly error: AgentError;
}

/**
 * The events that close a turn that did not complete, so the log never keeps an open turn that
 * crash repair would later have to guess about: the partial answer streamed so far, a result for
 * every outstanding tool call (`AGENT_TOOL_NOT_RUN` when it never started), `step/end` for an open
 * step, then `turn/end` with the reason and the error's code and message.
 */
export function closingEvents(state: TurnState, ending: TurnEnding): SessionEventInput[] {
  const events: SessionEventInput[] = [];
  const partial = state.partial;
  // Tool calls of an unfinished answer are dropped: the model never finished issuing them.
  if (partial !== undefined && partial.text.length > 0)
    events.push({ type: 'assistant/message', data: { content: partial.text } });
  for (const call of state.outstanding) {
    const started = state.started.has(call.id);
    events.push({
      type: 'tool/result',
      data: started
        ? {
            callId: call.id,
            content: `the call was cut short: ${ending.error.message}`,
            isError: true,
            code: ending.error.code,
          }
        : {
            callId: call.id,
            content: 'the call was not run: the turn ended first',
            isError: true,
            code: 'AGENT_TOOL_NOT_RUN',
          },
    });
  }
  if (state.stepOpen) events.push({ type: 'step/end', data: {} });
  events.push({
    type: 'turn/end',
    data: { reason: ending.reason, error: `${ending.error.code}: ${ending.error.message}` },
  });
  return events;
}
