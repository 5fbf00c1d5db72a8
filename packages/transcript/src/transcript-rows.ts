import type { WireEvent } from '@strand/protocol';
import { messageText, readCoreEvent, type CoreEventDataMap, type MessageContent } from '@strand/session';
import { commandRows, type CommandOutputEvent } from './command-rows.js';

/*
 * The transcript as data: which events become rows and what each row shows, as a pure function
 * of the loaded events. No React, no DOM, no connection: the web's session view draws these rows,
 * and the HTML export (`@strand/export`) renders the same rows to a file.
 */

/** A subagent child's identity record (`@strand/subagent`'s descriptor; a test holds them equal). */
export const DESCRIPTOR_EVENT = 'subagent/descriptor';

/** `text` cut to `max` characters, with an ellipsis when it was cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** Structural markers carry no content worth a row. */
const HIDDEN = new Set(['step/start', 'step/end']);

export type Block = Exclude<MessageContent, string>[number];

/** A message's content as blocks (a plain string is one text block). */
export function contentBlocks(content: MessageContent): readonly Block[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** A `tool/result` event with its data read. */
export interface ToolResultEvent {
  readonly seq: number;
  readonly data: CoreEventDataMap['tool/result'];
}

/** A tool call drawn as a card: from its own `tool/call` event or from its message's `toolCalls`. */
export interface ToolCallView {
  readonly id: string;
  readonly name: string;
  readonly args: string;
  /** Its result when loaded (attached by `callId`), else `undefined` ("no result yet"). */
  readonly result: ToolResultEvent | undefined;
}

/** Who wrote a `user/message`, as a row shows it. */
export interface Author {
  readonly label: string;
  readonly kind: string;
}

/** One row of the transcript: a drawn event and everything it shows of the events around it. */
export type TranscriptRow = { readonly seq: number; readonly type: string } & (
  | { readonly kind: 'quiet'; readonly text: string }
  | { readonly kind: 'user'; readonly author: Author; readonly content: MessageContent }
  | {
      readonly kind: 'assistant';
      /** `undefined` when the message has no text (only calls drawn in its bubble). */
      readonly content: MessageContent | undefined;
      /** Calls with no `tool/call` row of their own: drawn inside the bubble. */
      readonly calls: readonly ToolCallView[];
    }
  | { readonly kind: 'tool-call'; readonly call: ToolCallView }
  /** A result whose call is outside the loaded window: shown alone. */
  | { readonly kind: 'tool-result'; readonly result: CoreEventDataMap['tool/result'] }
  | {
      readonly kind: 'command';
      readonly command: CoreEventDataMap['session/command'];
      readonly outputs: readonly CommandOutputEvent[];
    }
  /** Output whose command is outside the loaded window: shown alone. */
  | { readonly kind: 'command-output'; readonly output: CommandOutputEvent }
  | { readonly kind: 'turn-start' }
  | { readonly kind: 'turn-end'; readonly reason: string; readonly error: string | undefined }
  /** A subagent child's `subagent/descriptor`: its identity line. */
  | { readonly kind: 'identity' }
  /** A domain's or a newer build's type, or data the vocabulary does not describe: as it is. */
  | { readonly kind: 'unknown'; readonly data: unknown }
);

/**
 * Who wrote a `user/message`: only `human` is the person. `agent` is the parent agent's message
 * to this (child) session; `system` is injected context, told apart by its opening (imported
 * compaction summaries and command caveats).
 */
export function authorLabel(
  author: CoreEventDataMap['user/message']['author'],
  content: MessageContent,
): Author {
  if (author === 'human') return { label: 'User', kind: 'human' };
  if (author === 'agent') return { label: 'Parent agent', kind: 'agent' };
  const text = messageText(content).trimStart();
  if (
    /^This session is being continued from a previous conversation/i.test(text) ||
    /^<command-name>\/compact/.test(text)
  )
    return { label: 'Compaction summary', kind: 'compaction' };
  if (/^(<local-command-caveat>|Caveat:)/.test(text)) return { label: 'Caveat', kind: 'caveat' };
  return { label: 'System', kind: 'system' };
}

/** A request's route as a quiet row names it (once per module: it runs for every event drawn). */
const route = ({ provider, model, reasoningEffort }: CoreEventDataMap['request/header']): string =>
  `${provider}/${model}${reasoningEffort === undefined || reasoningEffort === '' ? '' : ` (${reasoningEffort})`}`;

/** The one-line text of an internal event, or undefined for an event that is not one. */
export function quietMarker(event: WireEvent): string | undefined {
  const core = readCoreEvent(event);
  switch (core?.type) {
    case 'model/selection':
      return `model selected: ${route(core.data)}`;
    case 'request/header':
      return `request sent to ${route(core.data)}`;
    case 'session/title':
      return `renamed to “${truncate(core.data.title, 120)}”`;
    case 'agent-preset/select':
      return core.data.preset === null ? 'agent preset cleared' : `agent preset: ${core.data.preset}`;
    case 'session/cost':
      return `the harness reports the session cost so far: $${core.data.usd.toFixed(2)}`;
    case 'session/continued-from':
      return `above: exported from ${core.data.session}; continued in ${core.data.harness} below`;
    default:
      return undefined;
  }
}

/**
 * An assistant message that would be an empty "Assistant" bubble: no text (an image counts as
 * content) and no tool call it has to draw itself. That is an imported record that carried only
 * usage (Codex's `token_count`; its usage is folded by the usage projection), or a streamed chunk
 * that carried only `tool_use` (Claude Code), whose every call is drawn by its own `tool/call` row
 * (`shownCalls`). A call without such a row is drawn inside the bubble, so that message stays.
 */
export function isEmptyAssistantMessage(
  event: WireEvent,
  shownCalls: Pick<ReadonlySet<string>, 'has'> = new Set<string>(),
): boolean {
  const core = readCoreEvent(event);
  if (core?.type !== 'assistant/message') return false;
  if (!(core.data.toolCalls ?? []).every((call) => shownCalls.has(call.id))) return false;
  return messageText(core.data.content).trim() === '';
}

/** The row that draws a tool-only chunk: its first call's `tool/call` row (undefined for any other event). */
function drawnByCallRow(event: WireEvent, callRows: ReadonlyMap<string, number>): number | undefined {
  const core = readCoreEvent(event);
  if (core?.type !== 'assistant/message' || !isEmptyAssistantMessage(event, callRows)) return undefined;
  const seqs = (core.data.toolCalls ?? []).flatMap((call) => callRows.get(call.id) ?? []);
  return seqs.length === 0 ? undefined : Math.min(...seqs);
}

/** What the loaded events say about each other: results by call, call rows, attached events. */
interface Links {
  readonly visible: readonly WireEvent[];
  readonly results: ReadonlyMap<string, ToolResultEvent>;
  /** Each call drawn by a `tool/call` row of its own: call id → that row's seq. */
  readonly callEvents: ReadonlyMap<string, number>;
  readonly commandOutputs: ReadonlyMap<number, readonly CommandOutputEvent[]>;
}

function linksOf(events: readonly WireEvent[]): Links {
  const results = new Map<string, ToolResultEvent>();
  const callEvents = new Map<string, number>();
  const declared = new Set<string>();
  for (const event of events) {
    const core = readCoreEvent(event);
    if (core?.type === 'tool/result') results.set(core.data.callId, { seq: event.seq, data: core.data });
    else if (core?.type === 'tool/call') callEvents.set(core.data.callId, event.seq);
    else if (core?.type === 'assistant/message')
      for (const call of core.data.toolCalls ?? []) declared.add(call.id);
  }
  const attached = new Set<number>();
  for (const [callId, result] of results)
    if (callEvents.has(callId) || declared.has(callId)) attached.add(result.seq);
  const commands = commandRows(events);
  const visible = events.filter(
    (event) =>
      !HIDDEN.has(event.type) &&
      !attached.has(event.seq) &&
      !commands.attached.has(event.seq) &&
      !isEmptyAssistantMessage(event, callEvents),
  );
  return { visible, results, callEvents, commandOutputs: commands.outputs };
}

/** The row one visible event becomes. */
function rowOf(event: WireEvent, links: Links): TranscriptRow {
  const at = { seq: event.seq, type: event.type };
  const quiet = quietMarker(event);
  if (quiet !== undefined) return { ...at, kind: 'quiet', text: quiet };
  const core = readCoreEvent(event);
  switch (core?.type) {
    case 'user/message':
      return {
        ...at,
        kind: 'user',
        author: authorLabel(core.data.author, core.data.content),
        content: core.data.content,
      };
    case 'assistant/message':
      return {
        ...at,
        kind: 'assistant',
        content: messageText(core.data.content).trim() === '' ? undefined : core.data.content,
        calls: (core.data.toolCalls ?? [])
          .filter((call) => !links.callEvents.has(call.id))
          .map((call) => ({
            id: call.id,
            name: call.name,
            args: call.arguments,
            result: links.results.get(call.id),
          })),
      };
    case 'tool/call':
      return {
        ...at,
        kind: 'tool-call',
        call: {
          id: core.data.callId,
          name: core.data.name,
          args: core.data.arguments,
          result: links.results.get(core.data.callId),
        },
      };
    case 'tool/result':
      return { ...at, kind: 'tool-result', result: core.data };
    case 'session/command':
      return {
        ...at,
        kind: 'command',
        command: core.data,
        outputs: links.commandOutputs.get(event.seq) ?? [],
      };
    case 'session/command-output':
      return { ...at, kind: 'command-output', output: { seq: event.seq, data: core.data } };
    case 'turn/start':
      return { ...at, kind: 'turn-start' };
    case 'turn/end':
      return { ...at, kind: 'turn-end', reason: core.data.reason, error: core.data.error };
    default:
      return event.type === DESCRIPTOR_EVENT
        ? { ...at, kind: 'identity' }
        : { ...at, kind: 'unknown', data: event.data };
  }
}

/** The transcript's rows, in seq order: one per drawn event (see `TranscriptRow`). */
export function transcriptRows(events: readonly WireEvent[]): TranscriptRow[] {
  const links = linksOf(events);
  return links.visible.map((event) => rowOf(event, links));
}

/**
 * The row that shows event `target`: a tool-only chunk's first call row (the card it became);
 * otherwise the last row at or before it, because a hidden event (a step marker, a result drawn
 * inside its call's card) is shown by the row before it; the first row when none is. `undefined`
 * when no event is a row.
 */
export function targetRowSeq(events: readonly WireEvent[], target: number): number | undefined {
  const { visible, callEvents } = linksOf(events);
  const event = events.find((candidate) => candidate.seq === target);
  const drawnBy = event === undefined ? undefined : drawnByCallRow(event, callEvents);
  if (drawnBy !== undefined) return drawnBy;
  let found = visible[0]?.seq;
  for (const event of visible) {
    if (event.seq > target) break;
    found = event.seq;
  }
  return found;
}
