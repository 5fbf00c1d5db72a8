import { AgentError } from '../errors.js';
import type { FinishReason, Model, ModelRequest, ModelToolCall, ModelUsage } from '../model/model.js';

/** What one model step produced so far; read after a failure too (a partial answer is kept). */
export class StepAccumulator {
  text = '';
  readonly toolCalls: ModelToolCall[] = [];
  usage: ModelUsage | undefined;
  finish: FinishReason | undefined;
}

/**
 * Reads one model response into `acc`. Every `next()` is raced against the turn's signal, so a
 * model that ignores cancellation still cannot hold the turn: on abort the iterator is told to
 * return (not awaited) and `AGENT_CANCELLED` is thrown.
 */
export async function readStep(
  model: Model,
  request: ModelRequest,
  acc: StepAccumulator,
  onDelta: (text: string) => void,
): Promise<void> {
  const { signal } = request;
  const iterator = model.stream(request)[Symbol.asyncIterator]();
  const aborted = abortPromise(signal);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted.promise]);
      if (next.done === true) break;
      const part = next.value;
      switch (part.type) {
        case 'text-delta':
          acc.text += part.text;
          onDelta(part.text);
          break;
        case 'tool-call':
          acc.toolCalls.push(part.call);
          break;
        case 'usage': {
          const { type: _, ...usage } = part;
          acc.usage = usage;
          break;
        }
        case 'finish':
          acc.finish = part.reason;
          break;
        default:
          part satisfies never;
      }
    }
  } catch (error) {
    if (signal.aborted) {
      // Not awaited: a model that ignores its signal may never settle this.
      iterator.return?.().catch(() => {
        // The stream is being abandoned; its closing error is of no interest.
      });
    }
    throw error;
  } finally {
    aborted.dispose();
  }
}

/** A promise that rejects with `AGENT_CANCELLED` when `signal` aborts (never resolves). */
export function abortPromise(signal: AbortSignal): { promise: Promise<never>; dispose(): void } {
  let onAbort: (() => void) | undefined;
  const promise = new Promise<never>((_, reject) => {
    onAbort = () =>
      reject(new AgentError('AGENT_CANCELLED', 'the turn was cancelled', { cause: signal.reason }));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // Callers that finish first never look at it again; an unobserved rejection must not crash the process.
  promise.catch(() => undefined);
  return { promise, dispose: () => onAbort !== undefined && signal.removeEventListener('abort', onAbort) };
}
