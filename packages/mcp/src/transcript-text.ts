import type { WireEvent } from '@strand/protocol';
import { asOfSeqAt, messageText, plainTerminalText, readCoreEvent, SessionLogOffset } from '@strand/session';

/** Bounds of one rendered window: an agent's context is small, a session may hold 50k events. */
export const TRANSCRIPT_LIMITS = {
  /** Characters of one event's text before it is cut (the cut says how much was left out). */
  eventChars: 4_000,
  /** Characters of the whole rendered window; the window stops before the event that would pass it. */
  totalChars: 40_000,
} as const;

export interface TranscriptWindow {
  readonly id: string;
  /** The log length: events `[0, cursor)` exist. */
  readonly cursor: number;
  /** Contiguous events of the session, in seq order. */
  readonly events: readonly WireEvent[];
  /** Lines about the session printed above the events (title, project…). */
  readonly heading: readonly string[];
}

export interface RenderedTranscript {
  readonly text: string;
  /** Seqs actually shown (the total bound may stop before the window's end); undefined when none. */
  readonly shown: { readonly first: number; readonly last: number } | undefined;
}

/**
 * The transcript of a window as text an agent reads: one block per event, each starting with its
 * seq, then a note on how to read the events before and after (with the exact `read_session`
 * arguments). Steps carry no content and are left out; every other event is shown, unknown types
 * as their JSON.
 */
export function renderTranscript(window: TranscriptWindow): RenderedTranscript {
  const lines = [...window.heading];
  let used = lines.join('\n').length;
  let first: number | undefined;
  let last: number | undefined;
  for (const event of window.events) {
    const block = renderEvent(event);
    if (block === undefined) {
      first ??= event.seq;
      last = event.seq;
      continue;
    }
    // Always show one event, so a window never renders empty and reading on always advances.
    if (last !== undefined && used + block.length + 1 > TRANSCRIPT_LIMITS.totalChars) break;
    lines.push(block);
    used += block.length + 1;
    first ??= event.seq;
    last = event.seq;
  }
  const shown = first === undefined || last === undefined ? undefined : { first, last };
  lines.push('', ...readOnNotes(window.id, window.cursor, shown));
  return { text: lines.join('\n'), shown };
}

function readOnNotes(
  id: string,
  cursor: number,
  shown: { first: number; last: number } | undefined,
): string[] {
  if (shown === undefined) return [`No events in this window (the session has ${cursor}).`];
  const lastSeq = asOfSeqAt(SessionLogOffset(cursor));
  const notes = [`Shown: seqs ${shown.first}–${shown.last} of 0–${lastSeq}.`];
  const arg = (value: unknown): string => JSON.stringify(value);
  if (shown.first > 0)
    notes.push(
      `Earlier: read_session {"id": ${arg(id)}, "fromSeq": ${Math.max(0, shown.first - 100)}, "toSeq": ${shown.first - 1}}`,
    );
  if (shown.last < lastSeq)
    notes.push(
      `Later: read_session {"id": ${arg(id)}, "fromSeq": ${shown.last + 1}, "toSeq": ${Math.min(lastSeq, shown.last + 100)}}`,
    );
  return notes;
}

function renderEvent(event: WireEvent): string | undefined {
  const head = `[${event.seq}]`;
  const core = readCoreEvent(event);
  // Unknown and domain types (subagent/descriptor, newer versions), and data that does not match
  // the vocabulary, are kept opaque.
  if (core === undefined) return `${head} ${event.type} ${bounded(JSON.stringify(event.data), 1_000)}`;
  switch (core.type) {
    case 'step/start':
    case 'step/end':
      return undefined;
    case 'turn/start':
      return `${head} --- turn starts`;
    case 'turn/end':
      return `${head} --- turn ends (${core.data.reason}${core.data.error === undefined ? '' : `: ${core.data.error}`})`;
    case 'user/message':
      return `${head} ${author(core.data.author)}:${block(messageText(core.data.content))}`;
    case 'assistant/message': {
      // The arguments are shown once, by the `tool/call` event that follows.
      const calls = (core.data.toolCalls ?? []).map((c) => `\n  → calls ${c.name} (${c.id})`);
      return `${head} assistant:${block(messageText(core.data.content))}${calls.join('')}`;
    }
    case 'tool/call':
      return `${head} tool call ${core.data.name} (${core.data.callId}): ${bounded(core.data.arguments, 1_000)}`;
    case 'tool/result': {
      const { isError, code } = core.data;
      const failed = isError === true ? ` failed${code === undefined ? '' : ` ${code}`}` : '';
      // Terminal escapes are noise to a model: the text only.
      return `${head} tool result (${core.data.callId})${failed}:${block(plainTerminalText(messageText(core.data.content)))}`;
    }
    case 'session/command':
      return `${head} command run in the harness: /${core.data.name}${core.data.args === undefined ? '' : ` ${core.data.args}`}`;
    case 'session/command-output':
      return `${head} command output (${core.data.stream}):${block(plainTerminalText(core.data.text))}`;
    case 'session/title':
      return `${head} title: ${JSON.stringify(core.data.title)}`;
    case 'session/cost':
      return `${head} the harness reports the session cost so far: $${core.data.usd.toFixed(4)}`;
    case 'session/continued-from':
      return `${head} --- continued in ${core.data.harness} from session ${core.data.session} (its events to seq ${core.data.cut} are above)`;
    case 'model/selection':
      return `${head} model selected: ${core.data.provider}/${core.data.model}`;
    case 'request/header':
      return `${head} model request: ${core.data.provider}/${core.data.model}`;
    case 'agent-preset/select':
      return `${head} preset selected: ${String(core.data.preset)}`;
  }
}

function author(value: 'human' | 'agent' | 'system'): string {
  if (value === 'agent') return 'user (the parent agent)';
  if (value === 'system') return 'user (system)';
  return 'user';
}

/** Message text on the lines below its event's head; nothing for an empty message. */
function block(text: string): string {
  return text.trim() === '' ? '' : `\n${bounded(text)}`;
}

function bounded(text: string, max: number = TRANSCRIPT_LIMITS.eventChars): string {
  return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters]` : text;
}
