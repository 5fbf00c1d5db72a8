import { isEventOfType, messageText, type SessionEvent } from '@strand/session';
import type { ModelMessage, ModelToolCall } from '../model/model.js';

/**
 * The conversation a model sees, rebuilt from the session's events — inherited prefix included
 * (that is what a fork is for). Only messages and tool results matter; every other event type is
 * the log's business, not the model's.
 *
 * Every tool call gets an answer before the conversation moves on (chat APIs reject a call
 * without one): a call the log has no `tool/result` for (an imported or damaged log) is answered
 * with a note saying so.
 */
export function contextMessages(
  events: readonly SessionEvent[],
  instructions: string | undefined,
): ModelMessage[] {
  const messages: ModelMessage[] = [];
  if (instructions !== undefined && instructions.length > 0)
    messages.push({ role: 'system', content: instructions });
  let unanswered: ModelToolCall[] = [];
  const answerTheRest = (): void => {
    for (const call of unanswered)
      messages.push({
        role: 'tool',
        callId: call.id,
        content: 'error: no result was recorded for this call',
      });
    unanswered = [];
  };
  for (const event of events) {
    if (isEventOfType(event, 'user/message')) {
      answerTheRest();
      messages.push({ role: 'user', content: messageText(event.data.content) });
    } else if (isEventOfType(event, 'assistant/message')) {
      answerTheRest();
      const toolCalls = (event.data.toolCalls ?? []).map(({ id, name, arguments: args }) => ({
        id,
        name,
        arguments: args,
      }));
      messages.push({ role: 'assistant', content: messageText(event.data.content), toolCalls });
      unanswered = [...toolCalls];
    } else if (isEventOfType(event, 'tool/result')) {
      const index = unanswered.findIndex((call) => call.id === event.data.callId);
      // A result for a call the conversation does not have open would be rejected by the API.
      if (index < 0) continue;
      unanswered.splice(index, 1);
      const { content, isError, code } = event.data;
      const text = messageText(content);
      messages.push({
        role: 'tool',
        callId: event.data.callId,
        content: isError === true ? `error${code === undefined ? '' : ` ${code}`}: ${text}` : text,
      });
    }
  }
  answerTheRest();
  return messages;
}
