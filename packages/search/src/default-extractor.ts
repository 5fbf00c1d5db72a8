import {
  commandLine,
  isRecord,
  messageText,
  plainTerminalText,
  readCoreEvent,
  type SessionEvent,
} from '@strand/session';

/**
 * Chooses the text of an event to index, or `undefined` for an event that has none. The index knows
 * no event vocabulary: this function is its only window onto event meaning. It must be pure and
 * must not throw (the index treats a throw as "no text" and reports nothing).
 */
export type TextExtractor = (event: SessionEvent) => string | undefined;

/**
 * Chooses the events that set a session's *label* — the short text that names it (its title) —
 * and the label they set: a string sets it, `null` clears it, `undefined` leaves it as it was (most
 * events). The session's label is the one set by the last such event; a query matching it ranks the
 * session above every session matched by its events only. Like `TextExtractor`: pure, never
 * throws, and the index's only window onto what a label means.
 */
export type LabelExtractor = (event: SessionEvent) => string | null | undefined;

/**
 * Tool-call arguments are a JSON string. Indexing the raw string would glue JSON escapes to words
 * (`\nfunction` tokenizes as `nfunction`), so when it parses, the string leaves are indexed, one per
 * line; otherwise the raw string is.
 */
function argumentsText(args: string): string | undefined {
  if (args.length === 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    // Not JSON (some models send plain text): the raw string is the text.
    return args;
  }
  const leaves: string[] = [];
  collectStrings(parsed, leaves);
  return leaves.length > 0 ? leaves.join('\n') : undefined;
}

function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') {
    if (value.length > 0) out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectStrings(item, out);
  } else if (isRecord(value)) {
    for (const item of Object.values(value)) collectStrings(item, out);
  }
}

/**
 * The default extractor over the core vocabulary: message text of `user/message`,
 * `assistant/message` and `tool/result` (string content or its text blocks), the arguments of
 * `tool/call`, a `session/command` as typed (`/compact`, `/model opus`) and its
 * `session/command-output`; tool and command output without terminal escapes. An assistant message's `toolCalls` are not indexed: each call is also logged as a
 * `tool/call` event, which is where its hit points.
 */
export function defaultTextExtractor(event: SessionEvent): string | undefined {
  const core = readCoreEvent(event);
  switch (core?.type) {
    case 'user/message':
    case 'assistant/message': {
      // Images have no words to find.
      const text = messageText(core.data.content, 'left out');
      return text.length > 0 ? text : undefined;
    }
    case 'tool/result': {
      // A tool's output is often a terminal's (a coloured test run): its escapes are no words,
      // and a snippet must not show them.
      const text = plainTerminalText(messageText(core.data.content, 'left out'));
      return text.length > 0 ? text : undefined;
    }
    case 'tool/call':
      return argumentsText(core.data.arguments);
    case 'session/command':
      // As the person typed it: `/compact` (the slash is no word to the tokenizer, the name is).
      return commandLine(core.data);
    case 'session/command-output': {
      // Terminal escapes glue to words (`[2mCompacted`): the text only.
      const text = plainTerminalText(core.data.text).trim();
      return text.length > 0 ? text : undefined;
    }
    default:
      return undefined;
  }
}
