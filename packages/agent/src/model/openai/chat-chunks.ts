import { isRecord } from '@strand/session';
import { AgentError } from '../../errors.js';
import type { FinishReason, ModelStreamPart, ModelToolCall, ModelUsage } from '../model.js';

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Turns chat-completions stream chunks into stream parts. Text deltas pass straight through;
 * tool calls arrive in pieces keyed by `index` (id and name once, arguments in fragments) and are
 * emitted whole at the end, in index order; usage comes in a final chunk with no choices when the
 * request set `stream_options.include_usage`.
 */
export class ChatChunkAssembler {
  readonly #calls = new Map<number, PartialCall>();
  #usage: ModelUsage | undefined;
  #finish: FinishReason | undefined;

  /** True once a choice reported a `finish_reason`: the response itself is complete. */
  get finished(): boolean {
    return this.#finish !== undefined;
  }

  push(chunk: unknown): ModelStreamPart[] {
    if (!isRecord(chunk)) throw unreadable('a chunk is not an object');
    if (isRecord(chunk.error)) {
      const message = typeof chunk.error.message === 'string' ? chunk.error.message : 'no message';
      throw new AgentError('AGENT_MODEL_FAILED', `the model reported an error mid-stream: ${message}`);
    }
    const parts: ModelStreamPart[] = [];
    if (isRecord(chunk.usage)) this.#usage = chatUsage(chunk.usage) ?? this.#usage;
    const choices = chunk.choices;
    if (choices === undefined || choices === null) return parts;
    if (!Array.isArray(choices)) throw unreadable('choices is not a list');
    // One completion per request (n = 1): only choice 0 is read.
    const choice: unknown = choices.find((c) => isRecord(c) && (c.index ?? 0) === 0);
    if (!isRecord(choice)) return parts;
    const delta = choice.delta;
    if (isRecord(delta)) {
      if (typeof delta.content === 'string' && delta.content.length > 0)
        parts.push({ type: 'text-delta', text: delta.content });
      if (delta.tool_calls !== undefined && delta.tool_calls !== null) this.#pushCalls(delta.tool_calls);
    }
    if (typeof choice.finish_reason === 'string') this.#finish = finishReason(choice.finish_reason);
    return parts;
  }

  /** The parts owed at the end of the response: whole tool calls, usage, finish. */
  finish(): ModelStreamPart[] {
    const parts: ModelStreamPart[] = [];
    const calls = [...this.#calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    for (const [i, call] of calls.entries()) {
      if (call.name.length === 0) throw unreadable(`tool call ${i} has no name`);
      const complete: ModelToolCall = {
        id: call.id.length > 0 ? call.id : `call-${i}`,
        name: call.name,
        arguments: call.arguments,
      };
      parts.push({ type: 'tool-call', call: complete });
    }
    if (this.#usage !== undefined) parts.push({ type: 'usage', ...this.#usage });
    parts.push({ type: 'finish', reason: this.#finish ?? (calls.length > 0 ? 'tool-calls' : 'stop') });
    return parts;
  }

  #pushCalls(toolCalls: unknown): void {
    if (!Array.isArray(toolCalls)) throw unreadable('tool_calls is not a list');
    for (const [position, raw] of toolCalls.entries()) {
      if (!isRecord(raw)) throw unreadable('a tool call delta is not an object');
      const index = Number.isSafeInteger(raw.index) ? (raw.index as number) : position;
      let call = this.#calls.get(index);
      if (call === undefined) {
        call = { id: '', name: '', arguments: '' };
        this.#calls.set(index, call);
      }
      if (typeof raw.id === 'string' && raw.id.length > 0) call.id = raw.id;
      const fn = raw.function;
      if (isRecord(fn)) {
        // Names arrive whole in practice; appending also tolerates servers that split them.
        if (typeof fn.name === 'string') call.name += fn.name;
        if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
      }
    }
  }
}

function finishReason(raw: string): FinishReason {
  switch (raw) {
    case 'stop':
      return 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'length':
      return 'length';
    default:
      return 'other';
  }
}

function unreadable(why: string): AgentError {
  return new AgentError('AGENT_MODEL_FAILED', `unreadable model stream: ${why}`);
}

/**
 * Chat Completions usage in the log's meaning: `prompt_tokens` includes the cached part
 * (`prompt_tokens_details.cached_tokens`), which comes out as cache reads; `completion_tokens`
 * includes reasoning (`completion_tokens_details.reasoning_tokens`). Undefined without the two counts.
 */
export function chatUsage(usage: Readonly<Record<string, unknown>>): ModelUsage | undefined {
  const prompt = usage.prompt_tokens;
  const completion = usage.completion_tokens;
  if (!isCount(prompt) || !isCount(completion)) return undefined;
  const cached = isRecord(usage.prompt_tokens_details)
    ? usage.prompt_tokens_details.cached_tokens
    : undefined;
  const reasoning = isRecord(usage.completion_tokens_details)
    ? usage.completion_tokens_details.reasoning_tokens
    : undefined;
  const cacheRead = isCount(cached) ? Math.min(cached, prompt) : 0;
  return {
    input: prompt - cacheRead,
    output: completion,
    ...(cacheRead > 0 ? { cacheRead } : {}),
    ...(isCount(reasoning) && reasoning > 0 ? { reasoning } : {}),
  };
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
