import type { FileReports } from '../mapping/file-reports.js';
import type { Route, TranscriptBuilder } from '../mapping/transcript-builder.js';
import { usage } from '../mapping/usage.js';
import { count, isRecord, str, timeOf, type JsonRecord } from '../source/json-record.js';

/** Bubble `type`s (Cursor's `ConversationMessage_MessageType`): the person's and the model's. */
const USER = 1;
const ASSISTANT = 2;

/**
 * Tool states Cursor writes in `toolFormerData.status` once a call has an outcome. `completed`
 * is a result; the others an error result. Any other state (`loading`, `pending`) has none yet:
 * the call is written, its result when a later read finds one.
 */
const ERROR_STATES = new Set(['error', 'cancelled', 'rejected', 'aborted']);

/**
 * Maps one composer's bubbles, one at a time and in conversation order, into a
 * `TranscriptBuilder`. Each bubble maps to its own events and nothing later changes them (the
 * prefix law): the composer's changing fields (its `modelConfig`, `status`, running totals) are
 * never read here; the model is each bubble's own `modelInfo`.
 *
 * Turns: Cursor records no turn end a bubble could show, so a turn closes when the next prompt
 * arrives (`completed`; a call still unanswered then gets `TOOL_OUTCOME_UNKNOWN`), and the last
 * turn stays open.
 */
export class CursorBubbles {
  #titled = false;
  #model: string | undefined;
  #lastTime: number;

  constructor(
    private readonly builder: TranscriptBuilder,
    private readonly reports: FileReports,
    /** The composer's `createdAt`: the time of bubbles that carry none before any that does. */
    start: number,
    /** The composer's `name`, written after the first reply (Cursor names a chat from its start). */
    private readonly title: string | undefined,
  ) {
    this.#lastTime = start;
  }

  /** One bubble; `bubbleId` from its key (the call id of a tool call that names none). */
  bubble(bubble: JsonRecord, bubbleId: string): void {
    // Modern bubbles carry an ISO `createdAt`; older ones none (then the time before them holds).
    const time = timeOf(bubble.createdAt) ?? msOf(bubble.createdAt) ?? this.#lastTime;
    this.#lastTime = time;
    const model = isRecord(bubble.modelInfo) ? str(bubble.modelInfo.modelName) : undefined;
    if (model !== undefined && model !== '') this.#model = model;
    if (bubble.type === USER) this.#user(bubble, time);
    else if (bubble.type === ASSISTANT) this.#assistant(bubble, bubbleId, time);
    else this.reports.unknown(null, `bubble type ${JSON.stringify(bubble.type)}`);
    this.builder.flushAssistant();
  }

  #user(bubble: JsonRecord, time: number): void {
    const text = str(bubble.text) ?? '';
    if (Array.isArray(bubble.images) && bubble.images.length > 0) this.reports.ignore('image');
    if (text.trim() === '') {
      this.reports.ignore('empty user bubble');
      return;
    }
    this.builder.prompt(text, 'human', time, { titleText: text });
  }

  #assistant(bubble: JsonRecord, bubbleId: string, time: number): void {
    const b = this.builder;
    if (isThinking(bubble)) this.reports.ignore('thinking');
    const text = str(bubble.text) ?? '';
    // A thought bubble's text is the model's reasoning, not its reply.
    if (bubble.isThought !== true) b.assistantText(text, time);
    const tool = isRecord(bubble.toolFormerData) ? bubble.toolFormerData : undefined;
    const name = tool === undefined ? undefined : str(tool.name);
    // `toolFormerData` without a name: Cursor's own state (`additionalData` alone), no call.
    const call =
      tool !== undefined && name !== undefined && name !== ''
        ? { id: str(tool.toolCallId) ?? bubbleId, name, tool }
        : undefined;
    if (call !== undefined) b.assistantToolCall(call.id, call.name, argumentsOf(call.tool), time);
    else if (tool !== undefined) this.reports.ignore('tool state without a call');
    const tokens = isRecord(bubble.tokenCount) ? bubble.tokenCount : undefined;
    if (tokens !== undefined)
      b.assistantUsage(
        usage({ input: count(tokens.inputTokens), output: count(tokens.outputTokens) }),
        'add',
      );
    if (this.#model !== undefined) {
      const route: Route = { provider: 'cursor', model: this.#model };
      b.assistantRoute(route, time);
    }
    const before = b.events.length;
    b.flushAssistant();
    const replied = b.events.length > before;
    if (call !== undefined) this.#result(call.id, call.tool, time);
    if (!this.#titled && this.title !== undefined && replied) {
      this.#titled = true;
      b.explicitTitle(this.title, time);
    }
  }

  #result(callId: string, tool: JsonRecord, time: number): void {
    const status = str(tool.status) ?? '';
    const result = textOf(tool.result);
    // The person turned the call down (an edit, a command): Cursor keeps its status as it was.
    if (tool.userDecision === 'rejected') {
      this.builder.toolResult(callId, result ?? '[rejected]', true, time);
      return;
    }
    if (ERROR_STATES.has(status)) {
      this.builder.toolResult(callId, result ?? `[${status}]`, true, time);
      return;
    }
    if (status === 'completed') this.builder.toolResult(callId, result ?? '', false, time);
  }
}

/** The call's arguments as the model wrote them (`rawArgs`), else Cursor's parsed `params`; JSON text. */
function argumentsOf(tool: JsonRecord): string {
  for (const value of [tool.rawArgs, tool.params]) {
    if (typeof value === 'string' && value !== '') return value;
    if (isRecord(value)) return JSON.stringify(value);
  }
  return '{}';
}

/** A result as text: Cursor stores it as a JSON string; an object is written back as JSON. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return undefined;
  return JSON.stringify(value);
}

function isThinking(bubble: JsonRecord): boolean {
  if (bubble.isThought === true) return true;
  if (isRecord(bubble.thinking) && str(bubble.thinking.text)) return true;
  return Array.isArray(bubble.allThinkingBlocks) && bubble.allThinkingBlocks.length > 0;
}

/** A Unix-millisecond time (older bubbles and `composerData.createdAt`). */
export function msOf(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : undefined;
}
