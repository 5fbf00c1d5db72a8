import { defined } from '@strand/session';
import { AgentError } from '../../errors.js';
import type { Model, ModelRequest, ModelRoute, ModelStreamPart } from '../model.js';
import { ChatChunkAssembler } from './chat-chunks.js';
import { chatCompletionsBody } from './request-body.js';
import { SseDecoder } from './sse.js';

export interface OpenAICompatibleConfig {
  /** The API root, e.g. `https://api.openai.com/v1`; requests go to `<baseUrl>/chat/completions`. */
  readonly baseUrl: string;
  readonly model: string;
  /** Name of the environment variable holding the API key; without it no `Authorization` is sent (local servers). */
  readonly apiKeyEnv?: string;
  /** When true, an unset key variable sends no `Authorization` instead of failing (default false). */
  readonly apiKeyOptional?: boolean;
  /** The provider name recorded in `request/header` (default `openai-compatible`). */
  readonly provider?: string;
  readonly reasoningEffort?: string;
  /** Longest wait for the response headers or for the next bytes of the stream (default 60 s). */
  readonly idleTimeoutMs?: number;
  readonly maxTokens?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Where the key is looked up (default `process.env`), read at every request so a rotated key is seen. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Default: Node's global `fetch`. */
  readonly fetch?: typeof fetch;
  /** The idle timer's clock (default the global timers); tests inject a manual one. */
  readonly timers?: IdleTimers;
}

/** What the idle timer needs of a clock. */
export interface IdleTimers {
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const GLOBAL_TIMERS: IdleTimers = {
  setTimeout: (fire, ms) => setTimeout(fire, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
const ERROR_BODY_LIMIT = 2_048;

/**
 * A model behind any OpenAI-compatible chat-completions endpoint, streamed (`stream: true`) and
 * parsed as server-sent events: text deltas as they come, tool calls assembled from their
 * fragments, usage from the final chunk (`stream_options.include_usage`).
 *
 * It never hangs: the request's signal and an idle timer (armed while waiting for headers and for
 * each read) both abort the fetch. A stream that breaks off after the response started — socket
 * closed, idle timeout, end of body before the response finished — is `AGENT_MODEL_INTERRUPTED`;
 * a failure before that (network, HTTP status, missing key) is `AGENT_MODEL_FAILED` /
 * `AGENT_MODEL_NOT_CONFIGURED`. No retries: the turn records the failure and a person retries.
 */
export class OpenAICompatibleModel implements Model {
  readonly route: ModelRoute;
  readonly #url: URL;
  readonly #config: OpenAICompatibleConfig;
  readonly #idleTimeoutMs: number;

  constructor(config: OpenAICompatibleConfig) {
    if (typeof config.model !== 'string' || config.model.length === 0)
      throw new AgentError('AGENT_CONFIG_INVALID', 'a model name is required');
    let base: URL;
    try {
      base = new URL(config.baseUrl.endsWith('/') ? config.baseUrl : `${config.baseUrl}/`);
    } catch (cause) {
      throw new AgentError('AGENT_CONFIG_INVALID', `invalid base URL ${JSON.stringify(config.baseUrl)}`, {
        cause,
      });
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new AgentError(
        'AGENT_CONFIG_INVALID',
        `the base URL must be http or https, got ${base.protocol}`,
      );
    }
    const idle = config.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    if (!Number.isSafeInteger(idle) || idle <= 0)
      throw new AgentError('AGENT_CONFIG_INVALID', `idleTimeoutMs must be a positive integer, got ${idle}`);
    this.#url = new URL('chat/completions', base);
    this.#config = config;
    this.#idleTimeoutMs = idle;
    this.route = {
      provider: config.provider ?? 'openai-compatible',
      model: config.model,
      ...defined({ reasoningEffort: config.reasoningEffort }),
    };
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamPart> {
    const headers = this.#headers();
    const idle = new IdleTimer(this.#idleTimeoutMs, this.#config.timers ?? GLOBAL_TIMERS);
    const signal = AbortSignal.any([request.signal, idle.signal]);
    const fetchImpl = this.#config.fetch ?? fetch;
    let response: Response;
    idle.arm();
    try {
      response = await fetchImpl(this.#url, {
        method: 'POST',
        headers,
        body: JSON.stringify(chatCompletionsBody(this.route, request, this.#config.maxTokens)),
        signal,
      });
    } catch (cause) {
      idle.clear();
      throwIfCancelled(request.signal);
      const why = idle.fired
        ? `no response within ${this.#idleTimeoutMs} ms`
        : `the request failed: ${messageOf(cause)}`;
      throw new AgentError('AGENT_MODEL_FAILED', `${this.route.model} at ${this.#url.host}: ${why}`, {
        cause,
      });
    }
    idle.clear();
    if (!response.ok) {
      const body = await boundedText(response);
      throw new AgentError(
        'AGENT_MODEL_FAILED',
        `${this.route.model} at ${this.#url.host} answered HTTP ${response.status}: ${body}`,
        {
          details: { status: response.status },
        },
      );
    }
    if (response.body === null)
      throw new AgentError('AGENT_MODEL_FAILED', `${this.route.model} answered without a body`);
    const reader = response.body.getReader();
    const text = new TextDecoder();
    const sse = new SseDecoder();
    const assembler = new ChatChunkAssembler();
    let complete = false;
    try {
      reading: for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        idle.arm();
        try {
          chunk = await reader.read();
        } catch (cause) {
          throwIfCancelled(request.signal);
          const why = idle.fired
            ? `no data for ${this.#idleTimeoutMs} ms`
            : `the connection broke: ${messageOf(cause)}`;
          throw new AgentError('AGENT_MODEL_INTERRUPTED', `${this.route.model} stream interrupted: ${why}`, {
            cause,
          });
        } finally {
          idle.clear();
        }
        if (chunk.done) break;
        const bytes: Uint8Array = chunk.value;
        for (const event of sse.push(text.decode(bytes, { stream: true }))) {
          if (event.data === '[DONE]') {
            complete = true;
            break reading;
          }
          let parsed: unknown;
          try {
            parsed = JSON.parse(event.data);
          } catch (cause) {
            throw new AgentError('AGENT_MODEL_FAILED', `unreadable model stream: a chunk is not JSON`, {
              cause,
            });
          }
          yield* assembler.push(parsed);
        }
      }
      // Some servers end the body without `[DONE]`; a response that reported its finish is whole.
      if (!complete && !assembler.finished) {
        throw new AgentError(
          'AGENT_MODEL_INTERRUPTED',
          `${this.route.model} stream interrupted: the connection closed before the response finished`,
        );
      }
      yield* assembler.finish();
    } finally {
      idle.clear();
      // Releases the socket when we stop early (cancel, error, [DONE] with bytes left).
      reader.cancel().catch(() => {
        // The stream already failed or closed; there is nothing left to release.
      });
    }
  }

  #headers(): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...this.#config.headers,
    };
    const name = this.#config.apiKeyEnv;
    if (name === undefined) return headers;
    const key = (this.#config.env ?? process.env)[name];
    if (key === undefined || key.length === 0) {
      if (this.#config.apiKeyOptional === true) return headers;
      throw new AgentError('AGENT_MODEL_NOT_CONFIGURED', `the API key variable ${name} is not set`);
    }
    headers.authorization = `Bearer ${key}`;
    return headers;
  }
}

/** A restartable timeout whose signal aborts the fetch and its body stream. */
class IdleTimer {
  readonly #controller = new AbortController();
  readonly #ms: number;
  readonly #timers: IdleTimers;
  #handle: unknown;
  fired = false;

  constructor(ms: number, timers: IdleTimers) {
    this.#ms = ms;
    this.#timers = timers;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  arm(): void {
    this.clear();
    this.#handle = this.#timers.setTimeout(() => {
      this.fired = true;
      this.#controller.abort(new Error(`idle for ${this.#ms} ms`));
    }, this.#ms);
  }

  clear(): void {
    if (this.#handle !== undefined) this.#timers.clearTimeout(this.#handle);
    this.#handle = undefined;
  }
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted)
    throw new AgentError('AGENT_CANCELLED', 'the model request was cancelled', { cause: signal.reason });
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

async function boundedText(response: Response): Promise<string> {
  try {
    const text = await response.text();
    return text.length > ERROR_BODY_LIMIT ? `${text.slice(0, ERROR_BODY_LIMIT)}…` : text;
  } catch {
    // The error body itself failed to arrive; the status says enough.
    return '(no body)';
  }
}
