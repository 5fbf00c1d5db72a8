import { setTimeout as sleep } from 'node:timers/promises';
import { AgentError } from '../../errors.js';
import type { Model, ModelRequest, ModelRoute, ModelStreamPart } from '../model.js';
import { ruleStep } from './rules.js';
import type { ScriptEntry } from './script.js';

export interface ScriptedModelOptions {
  /** Answers consumed in order, one per request; when exhausted, the rule set answers. */
  readonly script?: readonly ScriptEntry[];
  /** Default `{ provider: 'strand', model: 'scripted' }`. */
  readonly route?: ModelRoute;
  /**
   * Pause before each streamed chunk (a word), so a demo shows replies being written; default 0:
   * tests and benchmarks stream at once.
   */
  readonly chunkDelayMs?: number;
  /** How a pause is waited for (default a real timer); must reject when `signal` aborts. */
  readonly pause?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * The built-in deterministic model: no network, no key. It answers from a script, else from a
 * small rule set (`ruleStep`): echo the prompt, call tools the prompt asks for (including
 * `spawn_agent`), summarize tool results. The same requests give the same responses, so tests and
 * the demo corpus are reproducible. The script is shared by every session this instance serves.
 */
export class ScriptedModel implements Model {
  readonly route: ModelRoute;
  readonly #script: ScriptEntry[];
  readonly #chunkDelayMs: number;
  readonly #pause: (ms: number, signal: AbortSignal) => Promise<void>;
  #requests = 0;

  constructor(options: ScriptedModelOptions = {}) {
    this.route = options.route ?? { provider: 'strand', model: 'scripted' };
    this.#script = [...(options.script ?? [])];
    this.#chunkDelayMs = options.chunkDelayMs ?? 0;
    this.#pause = options.pause ?? ((ms, signal) => sleep(ms, undefined, { signal }));
  }

  /** Requests served so far. */
  get requests(): number {
    return this.#requests;
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamPart> {
    this.#requests++;
    const entry = this.#script.shift();
    const step =
      entry === undefined ? ruleStep(request) : typeof entry === 'function' ? entry(request) : entry;
    const text = step.text ?? '';
    for (const chunk of text.match(/\S+\s*|\s+/g) ?? []) {
      request.signal.throwIfAborted();
      if (this.#chunkDelayMs > 0) await this.#pause(this.#chunkDelayMs, request.signal);
      yield { type: 'text-delta', text: chunk };
    }
    if (step.hang === true) {
      await new Promise<never>((_, reject) => {
        const onAbort = (): void => reject(request.signal.reason as Error);
        if (request.signal.aborted) onAbort();
        else request.signal.addEventListener('abort', onAbort, { once: true });
      });
    }
    if (step.fail !== undefined) throw new AgentError(step.fail.code, step.fail.message);
    // Ids grow with the conversation, so they stay unique within it (a fork prefix included).
    const calls = (step.toolCalls ?? []).map((call, i) => ({
      id: `call-${request.messages.length}-${i}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    }));
    for (const call of calls) yield { type: 'tool-call', call };
    const usage = step.usage ?? estimateUsage(request, text, calls);
    yield { type: 'usage', input: usage.input, output: usage.output };
    yield { type: 'finish', reason: calls.length > 0 ? 'tool-calls' : 'stop' };
  }
}

/** Four characters per token: only has to be deterministic and roughly proportional. */
function estimateUsage(
  request: ModelRequest,
  text: string,
  calls: readonly { arguments: string }[],
): { input: number; output: number } {
  let chars = 0;
  for (const message of request.messages) chars += message.content.length;
  const out = text.length + calls.reduce((sum, call) => sum + call.arguments.length, 0);
  return { input: Math.ceil(chars / 4), output: Math.ceil(out / 4) };
}
