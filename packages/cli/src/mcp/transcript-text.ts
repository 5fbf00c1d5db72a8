import type { WireEvent } from '@strand/protocol';
import { asOfSeqAt, SessionLogOffset } from '@strand/session';

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

type Data = Record<string, unknown>;

function renderEvent(event: WireEvent): string | undefined {
  const data: Data =
    typeof event.data === 'object' && event.data !== null && !Array.isArray(event.data)
      ? (event.data as Data)
      : {};
  const head = `[${event.seq}]`;
  switch (event.type) {
    case 'step/start':
    case 'step/end':
      return undefined;
    case 'turn/start':
      return `${head} --- turn starts`;
    case 'turn/end':
      return `${head} --- turn ends (${String(data.reason)}${typeof data.error === 'string' ? `: ${data.error}` : ''})`;
    case 'user/message':
      return `${head} ${author(data.author)}:${block(contentText(data.content))}`;
    case 'assistant/message': {
      // The arguments are shown once, by the `tool/call` event that follows.
      const calls = Array.isArray(data.toolCalls)
        ? (data.toolCalls as Data[]).map((c) => `\n  → calls ${String(c.name)} (${String(c.id)})`)
        : [];
      return `${head} assistant:${block(contentText(data.content))}${calls.join('')}`;
    }
    case 'tool/call':
      return `${head} tool call ${String(data.name)} (${String(data.callId)}): ${bounded(argText(data.arguments), 1_000)}`;
    case 'tool/result': {
      const failed =
        data.isError === true ? ` failed${typeof data.code === 'string' ? ` ${data.code}` : ''}` : '';
      return `${head} tool result (${String(data.callId)})${failed}:${block(contentText(data.content))}`;
    }
    case 'session/title':
      return `${head} title: ${JSON.stringify(data.title)}`;
    case 'model/selection':
      return `${head} model selected: ${String(data.provider)}/${String(data.model)}`;
    case 'request/header':
      return `${head} model request: ${String(data.provider)}/${String(data.model)}`;
    case 'agent-preset/select':
      return `${head} preset selected: ${String(data.preset)}`;
    default:
      // Unknown and domain types (subagent/descriptor, newer versions) are kept opaque.
      return `${head} ${event.type} ${bounded(JSON.stringify(event.data), 1_000)}`;
  }
}

function author(value: unknown): string {
  if (value === 'agent') return 'user (the parent agent)';
  if (value === 'system') return 'user (system)';
  return 'user';
}

/** A message's text: a string, or text blocks with images named by their attachment ref. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content
    .map((block: unknown) => {
      const b = (typeof block === 'object' && block !== null ? block : {}) as Data;
      if (b.type === 'text' && typeof b.text === 'string') return b.text;
      if (b.type === 'image') return `[image ${String(b.ref)}]`;
      return JSON.stringify(block);
    })
    .join('\n');
}

/** Message text on the lines below its event's head; nothing for an empty message. */
function block(text: string): string {
  return text.trim() === '' ? '' : `\n${bounded(text)}`;
}

function argText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function bounded(text: string, max: number = TRANSCRIPT_LIMITS.eventChars): string {
  return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters]` : text;
}
