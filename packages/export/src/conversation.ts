import { readCoreEvent, type MessageContent, type TurnEndReason } from '@strand/session';
import type { ExportDocument } from './document.js';

/**
 * A session as the conversation a harness transcript holds: prompts, steps (the reply's text and
 * tool calls, each call with its result) and turn ends, in log order. The Codex and Gemini
 * writers render from this; what has no place in it is counted by kind in `leftOut`.
 */
export type ConversationItem =
  | { readonly kind: 'prompt'; readonly seq: number; readonly time: number; readonly text: string }
  | ConversationStep
  | {
      readonly kind: 'turn-end';
      readonly seq: number;
      readonly time: number;
      readonly reason: TurnEndReason;
    };

export interface ConversationStep {
  readonly kind: 'step';
  readonly seq: number;
  readonly time: number;
  /** The model as of the step (the last `model/selection` or `request/header` before it). */
  readonly model: string | undefined;
  readonly texts: string[];
  readonly calls: ConversationCall[];
}

export interface ConversationCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as the model sent them. */
  readonly arguments: string;
  /** The arguments as an object: parsed when they are one, else `{arguments: <text>}`. */
  readonly input: Record<string, unknown>;
  readonly seq: number;
  result?: {
    readonly content: string;
    readonly isError: boolean;
    readonly seq: number;
    readonly time: number;
  };
}

export interface Conversation {
  readonly items: readonly ConversationItem[];
  /** What the conversation could not hold, one line per kind. */
  readonly leftOut: string[];
}

export function conversationOf(document: ExportDocument): Conversation {
  const items: ConversationItem[] = [];
  const left = new Map<string, number>();
  const leave = (kind: string): void => void left.set(kind, (left.get(kind) ?? 0) + 1);
  const calls = new Map<string, ConversationCall>();
  let model: string | undefined;
  let step: (ConversationStep & { answered: boolean }) | undefined;
  const open = (seq: number, time: number): ConversationStep & { answered: boolean } => {
    if (step === undefined || step.answered) {
      step = { kind: 'step', seq, time, model, texts: [], calls: [], answered: false };
      items.push(step);
    }
    return step;
  };
  for (const event of document.events) {
    const core = readCoreEvent(event);
    if (core === undefined) {
      leave(`\`${event.type}\` record`);
      continue;
    }
    switch (core.type) {
      case 'user/message':
        step = undefined;
        if (core.data.author === 'system') leave('harness note');
        else
          items.push({
            kind: 'prompt',
            seq: event.seq,
            time: event.time,
            text: plainText(core.data.content, leave),
          });
        break;
      case 'assistant/message': {
        const text = plainText(core.data.content, leave);
        if (text !== '') open(event.seq, event.time).texts.push(text);
        break;
      }
      case 'tool/call': {
        const call: ConversationCall = {
          id: core.data.callId,
          name: core.data.name,
          arguments: core.data.arguments,
          input: callInput(core.data.arguments),
          seq: event.seq,
        };
        open(event.seq, event.time).calls.push(call);
        calls.set(call.id, call);
        break;
      }
      case 'tool/result': {
        const call = calls.get(core.data.callId);
        if (call === undefined || call.result !== undefined) {
          leave('tool result without its call');
          break;
        }
        call.result = {
          content: plainText(core.data.content, leave),
          isError: core.data.isError === true,
          seq: event.seq,
          time: event.time,
        };
        if (step !== undefined) step.answered = step.calls.includes(call) || step.answered;
        break;
      }
      case 'model/selection':
      case 'request/header':
        model = core.data.model;
        break;
      case 'session/command':
      case 'session/command-output':
        leave('harness command');
        break;
      case 'step/end':
        step = undefined;
        break;
      case 'turn/end':
        step = undefined;
        items.push({ kind: 'turn-end', seq: event.seq, time: event.time, reason: core.data.reason });
        break;
      // Structure and bookkeeping a transcript keeps its own way, or not at all.
      case 'turn/start':
      case 'step/start':
      case 'session/title':
      case 'session/cost':
      case 'agent-preset/select':
        break;
    }
  }
  for (const call of calls.values())
    if (call.result === undefined) leave('tool call without a result (an error result written in its place)');
  return { items, leftOut: [...left].map(([kind, n]) => `${n} × ${kind} not carried`) };
}

/** The text of a message (images named; the bytes are not in the document). */
export function plainText(content: MessageContent, leave: (kind: string) => void): string {
  if (typeof content === 'string') return content;
  return content
    .map((block) => {
      if (block.type === 'text') return block.text;
      leave('image');
      return `[image ${block.ref}]`;
    })
    .join('\n');
}

/** The arguments as the model sent them: an object when they parse as one, else kept as text. */
export function callInput(raw: string): Record<string, unknown> {
  try {
    const value = JSON.parse(raw) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // Not JSON: kept whole below.
  }
  return { arguments: raw };
}

/** The result written for a call the log holds none for (APIs refuse a call left unanswered). */
export const NO_RESULT = 'No result was recorded for this call.';
