import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { readAnthropicRequest, writeAnthropicAnswer } from './wire/anthropic.js';
import type { BedAnswer, BedRequest, SentAnswer, Wire } from './wire/conversation.js';
import { readGeminiRequest, writeGeminiAnswer } from './wire/gemini.js';
import { isRecord, type Json } from './wire/json.js';
import { readChatRequest, writeChatAnswer } from './wire/openai-chat.js';
import { readResponsesRequest, writeResponsesAnswer } from './wire/openai-responses.js';
import type { Held } from './wire/sse.js';

/** One request the endpoint answered, with the thread the script put it in. */
export interface Exchange {
  readonly index: number;
  readonly thread: string;
  readonly request: BedRequest;
  /** The request body as the harness sent it (for drift reports and debugging). */
  readonly body: Json;
  readonly answer: SentAnswer;
}

/** What the script answers a request with, and which conversation (thread) it belongs to. */
export interface Scripted {
  readonly thread: string;
  readonly answer: BedAnswer;
}

/**
 * Decides each answer. It sees the request (in the neutral shape) and the exchanges so far;
 * returning `undefined` makes the endpoint answer HTTP 400 and record a problem, so a harness
 * that asks more than the scenario scripted fails its test with a reason instead of hanging.
 */
export type Script = (request: BedRequest, before: readonly Exchange[]) => Scripted | undefined;

export interface ModelEndpoint {
  /** `http://127.0.0.1:<port>`: every wire is served under it at its own path. */
  readonly url: string;
  readonly exchanges: readonly Exchange[];
  /** Requests the script could not answer, and other surprises (unknown paths, bad JSON). */
  readonly problems: readonly string[];
  /** The exchanges of one thread, in order. */
  thread(name: string): Exchange[];
  /** Resolves when the first answer with `hold` has streamed its first piece. */
  held(): Promise<Exchange>;
  close(): Promise<void>;
}

const decoders: Record<string, (b: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

interface Route {
  readonly wire: Wire;
  readonly read: (body: Json, path: string, headers: BedRequest['headers']) => BedRequest;
  readonly write: (
    res: ServerResponse,
    req: BedRequest,
    answer: SentAnswer,
    id: string,
    held: Held,
  ) => Promise<void>;
}

function routeOf(path: string): Route | undefined {
  if (/^\/(v1\/)?messages(\?|$)/.test(path))
    return { wire: 'anthropic-messages', read: readAnthropicRequest, write: writeAnthropicAnswer };
  if (/^\/(v1\/)?responses(\?|$)/.test(path))
    return { wire: 'openai-responses', read: readResponsesRequest, write: writeResponsesAnswer };
  if (/^\/(v1\/)?chat\/completions(\?|$)/.test(path))
    return { wire: 'openai-chat', read: readChatRequest, write: writeChatAnswer };
  if (/\/models\/[^:/]+:(stream)?[gG]enerateContent/.test(path))
    return { wire: 'gemini', read: readGeminiRequest, write: writeGeminiAnswer };
  return undefined;
}

/**
 * A scripted model endpoint on loopback speaking Anthropic Messages, OpenAI Responses, OpenAI
 * Chat Completions and the Gemini API (streaming SSE, and the plain JSON answers where a harness
 * asks without streaming). It records every request in the neutral shape with the answer it
 * sent, which is what a bed test expects an imported session to hold.
 */
export async function startModelEndpoint(script: Script): Promise<ModelEndpoint> {
  const exchanges: Exchange[] = [];
  const problems: string[] = [];
  const events = new EventEmitter();
  // The first hold, whether or not anyone asked yet (a scenario asks before it starts the harness).
  const firstHeld = once(events, 'held').then(([e]) => e as Exchange);
  let calls = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = req.url ?? '/';
    const raw = await readBody(req);
    // Token counting and reachability probes are not conversation: answered, not recorded.
    if (req.method === 'HEAD' || req.method === 'GET') return void res.writeHead(200).end();
    if (/count_tokens|:countTokens/.test(path)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ input_tokens: 100, totalTokens: 100 }));
    }
    const route = routeOf(path);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = undefined;
    }
    if (route === undefined || !isRecord(body)) {
      problems.push(
        `${req.method} ${path}: ${route === undefined ? 'no wire is served here' : 'body is not JSON'}`,
      );
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    }
    const request = route.read(body, path, req.headers);
    const scripted = script(request, exchanges);
    if (scripted === undefined) {
      const last = request.messages.at(-1);
      problems.push(
        `request ${exchanges.length + 1} (${route.wire} ${request.model}) was not scripted; its last message: ${JSON.stringify(last?.parts ?? []).slice(0, 300)}`,
      );
      // 400, not 500: a harness retries a server error (Gemini CLI ten times, with backoff),
      // but gives up on a request it is told is wrong, so an unscripted request fails fast.
      res.writeHead(400, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify({
          error: {
            type: 'invalid_request_error',
            code: 400,
            status: 'INVALID_ARGUMENT',
            message: 'the bed script has no answer for this request',
          },
        }),
      );
    }
    calls++;
    const answer: SentAnswer = {
      ...scripted.answer,
      toolCalls: (scripted.answer.toolCalls ?? []).map((call, i) => ({
        ...call,
        id: call.id ?? `call_bed_${calls}_${i}`,
      })),
    };
    const exchange: Exchange = { index: exchanges.length, thread: scripted.thread, request, body, answer };
    exchanges.push(exchange);
    const held: Held = async (r) => {
      events.emit('held', exchange);
      if (!r.destroyed && !r.writableEnded) await once(r, 'close');
    };
    await route.write(res, request, answer, `bed${calls}`, held);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      problems.push(`${req.url ?? ''}: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    problems,
    thread: (name) => exchanges.filter((e) => e.thread === name),
    held: () => firstHeld,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
  const decode = decoders[encoding];
  return decode === undefined ? raw : decode(raw);
}
