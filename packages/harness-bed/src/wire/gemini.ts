import type { ServerResponse } from 'node:http';
import type { BedMessage, BedPart, BedRequest, SentAnswer } from './conversation.js';
import { DEFAULT_USAGE, splitText, valueForSchema as valueOf } from './conversation.js';
import { isRecord, records, str, type Json } from './json.js';
import { sseEvent, type Held } from './sse.js';

/**
 * Gemini API (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse` and
 * `:generateContent`), as Gemini CLI speaks it with `GOOGLE_GEMINI_BASE_URL`.
 */

export function readGeminiRequest(body: Json, path: string, headers: BedRequest['headers']): BedRequest {
  const model = /\/models\/([^:/]+):/.exec(path)?.[1] ?? '';
  const messages: BedMessage[] = records(body.contents).map((c) => ({
    role: c.role === 'model' ? 'assistant' : 'user',
    parts: geminiParts(c.parts),
  }));
  const systemParts = isRecord(body.systemInstruction) ? geminiParts(body.systemInstruction.parts) : [];
  const config = isRecord(body.generationConfig) ? body.generationConfig : {};
  const schema = config.responseJsonSchema ?? config.responseSchema;
  const tools = records(body.tools).flatMap((t) =>
    records(t.functionDeclarations).map((f) => str(f.name) ?? ''),
  );
  return {
    wire: 'gemini',
    path,
    model,
    stream: path.includes(':streamGenerateContent'),
    system: systemParts.map((p) => (p.kind === 'text' ? p.text : '')).join('\n'),
    messages,
    tools,
    ...(config.responseMimeType === 'application/json' ? { jsonSchema: schema ?? {} } : {}),
    headers,
  };
}

function geminiParts(parts: unknown): BedPart[] {
  const out: BedPart[] = [];
  for (const part of records(parts)) {
    if (typeof part.text === 'string') {
      // Thought summaries are the model's own reasoning, not conversation.
      if (part.thought !== true) out.push({ kind: 'text', text: part.text });
    } else if (isRecord(part.inlineData))
      out.push({
        kind: 'image',
        mediaType: str(part.inlineData.mimeType) ?? '',
        data: str(part.inlineData.data) ?? '',
      });
    else if (isRecord(part.functionCall))
      out.push({
        kind: 'tool-call',
        id: str(part.functionCall.id) ?? '',
        name: str(part.functionCall.name) ?? '',
        input: part.functionCall.args,
      });
    else if (isRecord(part.functionResponse)) {
      const response = part.functionResponse.response;
      out.push({
        kind: 'tool-result',
        id: str(part.functionResponse.id) ?? '',
        output: geminiOutput(response),
        isError: isRecord(response) && response.error !== undefined,
      });
    }
  }
  return out;
}

/** A function response as text: its `output` (or `error`) string, else its JSON. */
export function geminiOutput(response: unknown): string {
  if (isRecord(response)) {
    if (typeof response.output === 'string') return response.output;
    if (typeof response.error === 'string') return response.error;
  }
  return JSON.stringify(response ?? null);
}

export async function writeGeminiAnswer(
  res: ServerResponse,
  request: BedRequest,
  answer: SentAnswer,
  id: string,
  held: Held,
): Promise<void> {
  const usage = answer.usage ?? DEFAULT_USAGE;
  const cached = usage.cacheReadTokens ?? 0;
  const usageMetadata = {
    // Gemini counts cached input inside the prompt, thoughts apart from candidates.
    promptTokenCount: usage.inputTokens + cached,
    candidatesTokenCount: usage.outputTokens - (usage.reasoningTokens ?? 0),
    cachedContentTokenCount: cached,
    thoughtsTokenCount: usage.reasoningTokens ?? 0,
    totalTokenCount: usage.inputTokens + cached + usage.outputTokens,
  };
  const callParts = answer.toolCalls.map((call) => ({
    functionCall: {
      name: call.name,
      args: typeof call.input === 'string' ? { input: call.input } : call.input,
    },
  }));
  const candidate = (parts: Json[], finishReason?: string): Json => ({
    candidates: [
      {
        content: { role: 'model', parts },
        index: 0,
        ...(finishReason === undefined ? {} : { finishReason }),
      },
    ],
    modelVersion: request.model,
    responseId: id,
  });
  if (request.jsonSchema !== undefined) {
    // A structured-output request (the CLI's router, its next-speaker check): a value of its schema.
    const text = answer.text ?? JSON.stringify(valueOf(request.jsonSchema));
    const body = { ...candidate([{ text }], 'STOP'), usageMetadata };
    return respond(res, request, [body]);
  }
  const chunks: Json[] = [];
  if (answer.text !== undefined)
    for (const piece of splitText(answer.text, answer.pieces ?? 2)) chunks.push(candidate([{ text: piece }]));
  if (callParts.length > 0) chunks.push(candidate(callParts));
  chunks.push({ ...candidate([], 'STOP'), usageMetadata });
  if (!request.stream) {
    const parts = [...(answer.text === undefined ? [] : [{ text: answer.text }]), ...callParts];
    return respond(res, request, [{ ...candidate(parts, 'STOP'), usageMetadata }]);
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const chunk of chunks) {
    res.write(sseEvent(chunk));
    if (answer.hold === true) return held(res);
  }
  res.end();
}

function respond(res: ServerResponse, request: BedRequest, bodies: Json[]): Promise<void> {
  if (request.stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const body of bodies) res.write(sseEvent(body));
    res.end();
  } else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(bodies[0]));
  }
  return Promise.resolve();
}
