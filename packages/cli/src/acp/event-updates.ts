import type { ContentBlock, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { WireEvent } from '@strand/protocol';

/**
 * Which events a caller wants as updates: a `session/load` replays the whole conversation
 * (`history`); a `session/prompt` streams its own turn, where the editor already shows the
 * prompt it sent (`turn`: no user message echoed back).
 */
export type UpdateScope = 'history' | 'turn';

/**
 * The ACP `session/update`s one Strand event stands for — pure, total, and the one place the
 * mapping lives, so a replay and a live turn can never disagree. Events with no conversational
 * meaning for an editor (turn and step markers, titles, selections, request headers, unknown
 * types) map to nothing; a malformed event maps to nothing rather than throwing, like a unit.
 */
export function eventUpdates(event: WireEvent, scope: UpdateScope): SessionUpdate[] {
  const data = record(event.data);
  if (data === undefined) return [];
  switch (event.type) {
    case 'user/message':
      if (scope === 'turn') return [];
      return contentBlocks(data.content).map((content) => ({ sessionUpdate: 'user_message_chunk', content }));
    case 'assistant/message':
      return contentBlocks(data.content).map((content) => ({
        sessionUpdate: 'agent_message_chunk',
        content,
      }));
    case 'tool/call': {
      if (typeof data.callId !== 'string' || typeof data.name !== 'string') return [];
      return [
        {
          sessionUpdate: 'tool_call',
          toolCallId: data.callId,
          title: data.name,
          kind: 'other',
          status: 'in_progress',
          rawInput: parsedArguments(data.arguments),
        },
      ];
    }
    case 'tool/result': {
      if (typeof data.callId !== 'string') return [];
      return [
        {
          sessionUpdate: 'tool_call_update',
          toolCallId: data.callId,
          status: data.isError === true ? 'failed' : 'completed',
          content: contentBlocks(data.content).map((content) => ({ type: 'content', content })),
        },
      ];
    }
    default:
      return [];
  }
}

/** How a Strand turn ended, as the answer to `session/prompt`. */
export type TurnOutcome =
  | { readonly kind: 'stopped'; readonly stopReason: StopReason }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * `turn/end`'s reason → the prompt's answer. `completed` is `end_turn`; `aborted` (a cancel from
 * any client) is `cancelled`; a turn that ended in `error` (or `interrupted` by crash repair) did
 * not stop for a reason ACP names, so it is an error response carrying Strand's message.
 */
export function turnOutcome(event: WireEvent): TurnOutcome {
  const data = record(event.data);
  const reason = data?.reason;
  if (reason === 'completed') return { kind: 'stopped', stopReason: 'end_turn' };
  if (reason === 'aborted') return { kind: 'stopped', stopReason: 'cancelled' };
  const error = record(data?.error);
  const detail =
    typeof error?.message === 'string' ? error.message : typeof data?.error === 'string' ? data.error : '';
  return {
    kind: 'failed',
    message: `the turn ended with ${String(reason)}${detail === '' ? '' : `: ${detail}`}`,
  };
}

/**
 * Strand content (a string, or text / image blocks) → ACP content blocks. An image is a stored
 * attachment, not inline data: it becomes a link the editor can show by name. Empty text is
 * dropped (an assistant message that only calls tools has no text).
 */
function contentBlocks(content: unknown): ContentBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: ContentBlock[] = [];
  for (const item of content) {
    const block = record(item);
    if (block?.type === 'text' && typeof block.text === 'string' && block.text !== '')
      blocks.push({ type: 'text', text: block.text });
    else if (block?.type === 'image' && typeof block.ref === 'string')
      blocks.push({ type: 'resource_link', name: block.ref, uri: `strand-attachment:${block.ref}` });
  }
  return blocks;
}

/** Tool arguments travel JSON-encoded; the editor gets the value, or the text when it is not JSON. */
function parsedArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    // Not JSON (a model may send anything): show it as written.
    return args;
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
