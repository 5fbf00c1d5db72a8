import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
}

export type ChatHandler = (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>;

/** A local chat-completions endpoint speaking the streaming protocol, scripted per request. */
export interface MockChatServer {
  /** The base URL to configure (`…/v1`). */
  readonly baseUrl: string;
  readonly requests: ReceivedRequest[];
  /** Handlers used in order, one per request; the last one repeats. */
  handle(...handlers: ChatHandler[]): void;
  close(): Promise<void>;
}

export async function mockChatServer(): Promise<MockChatServer> {
  const requests: ReceivedRequest[] = [];
  let handlers: ChatHandler[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = {
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      };
      requests.push(received);
      const handler = handlers.length > 1 ? handlers.shift()! : handlers[0];
      if (handler === undefined || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      Promise.resolve(handler(received, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    handle: (...next) => {
      handlers = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts an event stream response. */
export function startStream(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
}

/** One `data:` event carrying a chat-completions chunk. */
export function sse(chunk: unknown): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

export const textChunk = (content: string): unknown => ({ choices: [{ index: 0, delta: { content } }] });
export const finishChunk = (reason: string): unknown => ({
  choices: [{ index: 0, delta: {}, finish_reason: reason }],
});
export const usageChunk = (input: number, output: number): unknown => ({
  choices: [],
  usage: { prompt_tokens: input, completion_tokens: output },
});

/** Token counts for {@link endStream}'s usage chunk. */
export interface StreamUsage {
  readonly input: number;
  readonly output: number;
}

/** Ends a streamed answer as a server does: `finish_reason: stop`, the usage chunk when given, `[DONE]`. */
export function endStream(response: ServerResponse, usage?: StreamUsage): void {
  response.write(sse(finishChunk('stop')));
  if (usage !== undefined) response.write(sse(usageChunk(usage.input, usage.output)));
  response.end('data: [DONE]\n\n');
}

/** A handler that answers every request with `text` in one chunk, then {@link endStream}. */
export function answerWith(text: string, usage?: StreamUsage): ChatHandler {
  return (_request, response) => {
    startStream(response);
    response.write(sse(textChunk(text)));
    endStream(response, usage);
  };
}

/** A streamed answer the test paces: see {@link pacedAnswer}. */
export interface PacedAnswer {
  readonly handler: ChatHandler;
  /** Lets the next held part go out (a chunk, or with `holdEnd` finally the end). */
  next(): void;
  /** Lets everything still held go out (for a test's cleanup). */
  releaseAll(): void;
}

/**
 * A handler that writes `chunks` one per {@link PacedAnswer.next} (the first too), then ends the
 * stream; with `holdEnd`, the end waits for one more `next()`. Nothing depends on timing. Made for
 * one request.
 */
export function pacedAnswer(
  chunks: readonly string[],
  usage: StreamUsage,
  options: { readonly holdEnd?: boolean } = {},
): PacedAnswer {
  const gates: (() => void)[] = [];
  const parts = chunks.length + (options.holdEnd === true ? 1 : 0);
  const waits = Array.from({ length: parts }, () => new Promise<void>((resolve) => gates.push(resolve)));
  let released = 0;
  return {
    async handler(_request, response) {
      startStream(response);
      for (const [i, chunk] of chunks.entries()) {
        await waits[i];
        response.write(sse(textChunk(chunk)));
      }
      if (options.holdEnd === true) await waits[chunks.length];
      endStream(response, usage);
    },
    next: () => gates[released++]?.(),
    releaseAll() {
      for (const release of gates) release();
    },
  };
}

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
