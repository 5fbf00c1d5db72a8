import { defined } from '@strand/session';
import type { ModelMessage, ModelRequest, ModelRoute } from '../model.js';

/** The chat-completions request for one model step. */
export function chatCompletionsBody(
  route: ModelRoute,
  request: Pick<ModelRequest, 'messages' | 'tools'>,
  maxTokens: number | undefined,
): Record<string, unknown> {
  return {
    model: route.model,
    messages: request.messages.map(toWire),
    stream: true,
    // Without this the stream carries no token counts; with it a last chunk (no choices) does.
    stream_options: { include_usage: true },
    ...(request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            type: 'function',
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
        }),
    ...defined({ reasoning_effort: route.reasoningEffort, max_tokens: maxTokens }),
  };
}

function toWire(message: ModelMessage): Record<string, unknown> {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return message.toolCalls.length === 0
        ? { role: 'assistant', content: message.content }
        : {
            role: 'assistant',
            content: message.content.length === 0 ? null : message.content,
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            })),
          };
    case 'tool':
      return { role: 'tool', tool_call_id: message.callId, content: message.content };
    default:
      return message satisfies never;
  }
}
