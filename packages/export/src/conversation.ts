import { readCoreEvent, type MessageContent, type TurnEndReason } from '@strand/session';
import { CARRIED_IMAGE_TYPE, type ExportDocument } from './document.js';

/**
 * A session as the conversation a harness transcript holds: prompts, steps (the reply's text and
 * tool calls, each call with its result) and turn ends, in log order. The harness writers render
 * from this; what has no place in it is counted by kind in `leftOut`.
 */
export type ConversationItem =
  | {
      readonly kind: 'prompt';
      readonly seq: number;
      readonly time: number;
      readonly content: ConversationContent;
    }
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
    /** Text only unless the target holds images in results (`ConversationOptions.resultImages`). */
    readonly content: ConversationContent;
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

/**
 * A message as a harness holds it: the text alone (every message without an image the export
 * carries, written exactly as before images were carried), or text and images in their order.
 */
export type ConversationContent = string | readonly ConversationPart[];

export type ConversationPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly mediaType: string; readonly base64: string };

export interface ConversationOptions {
  /** The target holds images in a tool's result (Claude Code); else they are named and left out. */
  readonly resultImages?: boolean;
}

export function conversationOf(document: ExportDocument, options: ConversationOptions = {}): Conversation {
  const items: ConversationItem[] = [];
  const left = new Map<string, number>();
  const leave = (kind: string): void => void left.set(kind, (left.get(kind) ?? 0) + 1);
  const attachments = document.attachments;
  // An image goes in as the harness's own image only with its bytes and of a type every target takes.
  const image = (ref: string): ConversationPart | undefined => {
    const attachment = attachments?.get(ref);
    return attachment !== undefined && CARRIED_IMAGE_TYPE.test(attachment.mediaType)
      ? { type: 'image', mediaType: attachment.mediaType, base64: attachment.base64 }
      : undefined;
  };
  const noImage = (): undefined => undefined;
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
            content: messageContent(core.data.content, image, leave),
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
          content: messageContent(core.data.content, options.resultImages === true ? image : noImage, leave),
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

/**
 * A message's content with the images `image` carries as image parts, the text between them
 * joined as `plainText` joins it; no image carried: exactly `plainText`'s string.
 */
function messageContent(
  content: MessageContent,
  image: (ref: string) => ConversationPart | undefined,
  leave: (kind: string) => void,
): ConversationContent {
  if (typeof content === 'string') return content;
  const parts: ConversationPart[] = [];
  let texts: string[] | undefined;
  for (const block of content) {
    const carried = block.type === 'image' ? image(block.ref) : undefined;
    if (carried !== undefined) {
      if (texts !== undefined) parts.push({ type: 'text', text: texts.join('\n') });
      texts = undefined;
      parts.push(carried);
    } else (texts ??= []).push(plainText([block], leave));
  }
  if (texts !== undefined) parts.push({ type: 'text', text: texts.join('\n') });
  const only = parts.length === 1 ? parts[0] : undefined;
  return parts.length === 0 ? '' : only?.type === 'text' ? only.text : parts;
}

/** The text of a message (images named and counted as left out). */
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

/** Content as text alone, for a place that holds no image (none is carried into one). */
export function contentText(content: ConversationContent): string {
  return typeof content === 'string'
    ? content
    : content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The result written for a call the log holds none for (APIs refuse a call left unanswered). */
export const NO_RESULT = 'No result was recorded for this call.';
