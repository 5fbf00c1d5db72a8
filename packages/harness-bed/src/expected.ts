import type { Exchange } from './endpoint.js';
import type { BedMessage, BedPart } from './wire/conversation.js';

/**
 * One step of a conversation as the endpoint saw and answered it. An imported session is checked
 * against these, in order: the prompts people (or, in a subagent, the parent agent) gave, the
 * model's replies and tool calls, and the tool results the harness sent back.
 */
export type ConversationItem =
  | { readonly kind: 'prompt'; readonly author: 'human' | 'agent'; readonly text: string }
  | { readonly kind: 'image'; readonly mediaType: string }
  | { readonly kind: 'reply'; readonly text: string }
  | { readonly kind: 'tool-call'; readonly name: string; readonly input: unknown }
  | { readonly kind: 'tool-result'; readonly output: string };

/** A prompt as given, and how to recognise it in a request (a slash command is sent expanded). */
export interface TypedPrompt {
  readonly text: string;
  readonly seen?: (part: string) => boolean;
  /**
   * The prompt as the transcript keeps it, from the text the endpoint saw, where the harness
   * wraps every prompt on the wire only (Copilot CLI's `<current_datetime>` line ahead of it).
   */
  readonly recorded?: (part: string) => string;
}

/**
 * The conversation of one thread, from its exchanges. A request repeats the history, so each
 * request adds only what is new since the thread's earlier requests and answers, in message
 * order: the typed prompts it carries, images, tool results, and assistant text the harness
 * wrote itself (Claude Code's "No response requested." after an interrupt); then the answer's
 * text and tool calls. An answer the endpoint held open and the harness abandoned (an interrupted
 * turn) never completed, so it adds nothing; its request counts only through the next request of
 * the thread, which carries what the harness kept of that turn. Within one user message the order is the one a
 * transcript keeps: the results of the calls answered, then the typed text, then what was
 * attached to it (Claude Code sends an `@`-mentioned image ahead of the text, a pasted one after).
 * Tool calls come from the answers only: a harness
 * may rewrite a call's arguments in its history (defaults filled in) or its ids.
 */
export function expectedConversation(
  exchanges: readonly Exchange[],
  prompts: readonly TypedPrompt[],
  author: 'human' | 'agent',
): ConversationItem[] {
  const items: ConversationItem[] = [];
  /** How many of each item the conversation holds so far, by key. */
  const known = new Map<string, number>();
  const add = (key: string, item: ConversationItem): void => {
    known.set(key, (known.get(key) ?? 0) + 1);
    items.push(item);
  };
  exchanges.forEach(({ request, answer }, i) => {
    // A turn the harness abandoned (its answer held open, then interrupted) is in the conversation
    // as the harness kept it: a later request of the thread carries what it kept, so it is read
    // from there. A harness stopped before it wrote the prompt (Claude Code, now and then, under
    // load) resumes without it, and its transcript has none either.
    if (answer.hold === true && i < exchanges.length - 1) return;
    const inRequest = new Map<string, number>();
    const occurs = (key: string): boolean => {
      const n = (inRequest.get(key) ?? 0) + 1;
      inRequest.set(key, n);
      return n > (known.get(key) ?? 0);
    };
    for (const message of request.messages)
      for (const part of inReadingOrder(message)) {
        if (message.role === 'assistant') {
          if (part.kind === 'text' && part.text.length > 0 && occurs(`reply\u0000${part.text}`))
            add(`reply\u0000${part.text}`, { kind: 'reply', text: part.text });
          continue;
        }
        if (part.kind === 'text') {
          const prompt = prompts.find((p) => (p.seen ?? ((t) => t.trim() === p.text))(part.text));
          // The prompt as the endpoint saw it: a slash command arrives expanded or wrapped.
          if (prompt !== undefined && occurs(`prompt\u0000${prompt.text}`))
            add(`prompt\u0000${prompt.text}`, {
              kind: 'prompt',
              author,
              text: (prompt.recorded?.(part.text) ?? part.text).trim(),
            });
        } else if (part.kind === 'image') {
          if (occurs('image')) add('image', { kind: 'image', mediaType: part.mediaType });
        } else if (part.kind === 'tool-result') {
          // A call has one result, however often a history repeats it (Gemini CLI's resumed
          // history carries the last result twice).
          const key = `result\u0000${part.id}\u0000${part.output}`;
          if (!known.has(key)) add(key, { kind: 'tool-result', output: part.output });
        }
      }
    if (answer.hold === true) return;
    if (answer.text !== undefined && answer.text.length > 0)
      add(`reply\u0000${answer.text}`, { kind: 'reply', text: answer.text });
    for (const call of answer.toolCalls)
      items.push({ kind: 'tool-call', name: call.name, input: call.input });
  });
  return items;
}

const USER_ORDER: Readonly<Record<BedPart['kind'], number>> = {
  'tool-result': 0,
  text: 1,
  image: 2,
  'tool-call': 3,
};

function inReadingOrder(message: BedMessage): readonly BedPart[] {
  if (message.role === 'assistant') return message.parts;
  return [...message.parts].sort((a, b) => USER_ORDER[a.kind] - USER_ORDER[b.kind]);
}
