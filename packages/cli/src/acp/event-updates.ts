import type { ContentBlock, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { WireEvent } from '@strand/protocol';
import { commandLine, plainTerminalText, readCoreEvent, type MessageContent } from '@strand/session';

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
 * types) map to nothing; an event whose data does not match the vocabulary maps to nothing
 * rather than throwing, like a unit.
 */
export function eventUpdates(event: WireEvent, scope: UpdateScope): SessionUpdate[] {
  const core = readCoreEvent(event);
  switch (core?.type) {
    case 'user/message':
      if (scope === 'turn') return [];
      return contentBlocks(core.data.content).map((content) => ({
        sessionUpdate: 'user_message_chunk',
        content,
      }));
    case 'assistant/message':
      return contentBlocks(core.data.content).map((content) => ({
        sessionUpdate: 'agent_message_chunk',
        content,
      }));
    case 'tool/call':
      return [
        {
          sessionUpdate: 'tool_call',
          toolCallId: core.data.callId,
          title: core.data.name,
          kind: 'other',
          status: 'in_progress',
          rawInput: parsedArguments(core.data.arguments),
        },
      ];
    case 'tool/result':
      return [
        {
          sessionUpdate: 'tool_call_update',
          toolCallId: core.data.callId,
          status: core.data.isError === true ? 'failed' : 'completed',
          // An editor shows tool output as text: a terminal's escapes would be noise in it.
          content: contentBlocks(core.data.content, plainTerminalText).map((content) => ({
            type: 'content',
            content,
          })),
        },
      ];
    case 'session/command':
      // What the person typed in the harness, as they typed it; its output was theirs alone.
      if (scope === 'turn') return [];
      return [
        {
          sessionUpdate: 'user_message_chunk',
          content: {
            type: 'text',
            text: commandLine(core.data),
          },
        },
      ];
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
  const core = readCoreEvent(event);
  const data = core?.type === 'turn/end' ? core.data : undefined;
  if (data?.reason === 'completed') return { kind: 'stopped', stopReason: 'end_turn' };
  if (data?.reason === 'aborted') return { kind: 'stopped', stopReason: 'cancelled' };
  const how = data === undefined ? 'an unreadable end' : data.reason;
  return {
    kind: 'failed',
    message: `the turn ended with ${how}${data?.error === undefined ? '' : `: ${data.error}`}`,
  };
}

/**
 * Strand content (a string, or text / image blocks) → ACP content blocks. An image is a stored
 * attachment, not inline data: it becomes a link the editor can show by name. Empty text is
 * dropped (an assistant message that only calls tools has no text); `text` rewrites the rest.
 */
function contentBlocks(
  content: MessageContent,
  text: (raw: string) => string = (raw) => raw,
): ContentBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: text(content) }];
  const blocks: ContentBlock[] = [];
  for (const block of content) {
    if (block.type === 'image')
      blocks.push({ type: 'resource_link', name: block.ref, uri: `strand-attachment:${block.ref}` });
    else if (block.text !== '') blocks.push({ type: 'text', text: text(block.text) });
  }
  return blocks;
}

/** Tool arguments travel JSON-encoded; the editor gets the value, or the text when it is not JSON. */
function parsedArguments(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    // Not JSON (a model may send anything): show it as written.
    return args;
  }
}
