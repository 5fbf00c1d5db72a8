import type { ServerResponse } from 'node:http';
import type { BedMessage, BedPart, BedRequest, SentAnswer } from './conversation.js';
import { DEFAULT_USAGE, splitText } from './conversation.js';
import { isRecord, records, str, type Json } from './json.js';
import { sseEvent, type Held } from './sse.js';

/** OpenAI Chat Completions (`POST /v1/chat/completions`), streamed. */

export function readChatRequest(body: Json, path: string, headers: BedRequest['headers']): BedRequest {
  const system: string[] = [];
  const messages: BedMessage[] = [];
  for (const m of records(body.messages)) {
    const role = str(m.role);
    if (role === 'system' || role === 'developer') {
      system.push(
        chatParts(m.content)
          .map((p) => (p.kind === 'text' ? p.text : ''))
          .join('\n'),
      );
    } else if (role === 'tool') {
      messages.push({
        role: 'user',
        parts: [
          { kind: 'tool-result', id: str(m.tool_call_id) ?? '', output: chatText(m.content), isError: false },
        ],
      });
    } else if (role === 'assistant') {
      const parts: BedPart[] = chatParts(m.content);
      for (const call of records(m.tool_calls)) {
        const fn = isRecord(call.function) ? call.function : {};
        let input: unknown = str(fn.arguments) ?? '';
        try {
          input = JSON.parse(String(input)) as unknown;
        } catch {
          // Arguments that are not JSON stay the string the harness sent.
        }
        parts.push({ kind: 'tool-call', id: str(call.id) ?? '', name: str(fn.name) ?? '', input });
      }
      messages.push({ role: 'assistant', parts });
    } else messages.push({ role: 'user', parts: chatParts(m.content) });
  }
  const format = isRecord(body.response_format) ? body.response_format : undefined;
  return {
    wire: 'openai-chat',
    path,
    model: str(body.model) ?? '',
    stream: body.stream === true,
    system: system.join('\n'),
    messages,
    tools: records(body.tools).map((t) => (isRecord(t.function) ? (str(t.function.name) ?? '') : '')),
    ...(format?.type === 'json_schema' && isRecord(format.json_schema)
      ? { jsonSchema: format.json_schema.schema }
      : {}),
    headers,
  };
}

function chatText(content: unknown): string {
  return chatParts(content)
    .map((p) => (p.kind === 'text' ? p.text : ''))
    .join('\n');
}

function chatParts(content: unknown): BedPart[] {
  if (typeof content === 'string') return content.length === 0 ? [] : [{ kind: 'text', text: content }];
  const parts: BedPart[] = [];
  for (const block of records(content)) {
    if (block.type === 'text') parts.push({ kind: 'text', text: str(block.text) ?? '' });
    else if (block.type === 'image_url' && isRecord(block.image_url)) {
      const url = str(block.image_url.url) ?? '';
      const match = /^data:([^;]+);base64,(.*)$/s.exec(url);
      parts.push({ kind: 'image', mediaType: match?.[1] ?? '', data: match?.[2] ?? url });
    }
  }
  return parts;
}

export async function writeChatAnswer(
  res: ServerResponse,
  request: BedRequest,
  answer: SentAnswer,
  id: string,
  held: Held,
): Promise<void> {
  const usage = answer.usage ?? DEFAULT_USAGE;
  const cached = usage.cacheReadTokens ?? 0;
  const wireUsage = {
    prompt_tokens: usage.inputTokens + cached,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + cached + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
  const finish = answer.toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (!request.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        model: request.model,
        choices: [
          {
            index: 0,
            finish_reason: finish,
            message: {
              role: 'assistant',
              content: answer.text ?? null,
              ...(answer.toolCalls.length > 0 ? { tool_calls: answer.toolCalls.map(chatCall) } : {}),
            },
          },
        ],
        usage: wireUsage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Json, finishReason: string | null = null): void =>
    void res.write(
      sseEvent({
        id,
        object: 'chat.completion.chunk',
        model: request.model,
        choices: [{ index: 0, delta, finish_reason: finishReason }],
      }),
    );
  chunk({ role: 'assistant', content: '' });
  if (answer.text !== undefined)
    for (const piece of splitText(answer.text, answer.pieces ?? 2)) {
      chunk({ content: piece });
      if (answer.hold === true) return held(res);
    }
  answer.toolCalls.forEach((call, index) => chunk({ tool_calls: [{ index, ...chatCall(call) }] }));
  chunk({}, finish);
  res.write(
    sseEvent({ id, object: 'chat.completion.chunk', model: request.model, choices: [], usage: wireUsage }),
  );
  res.write('data: [DONE]\n\n');
  res.end();
}

function chatCall(call: SentAnswer['toolCalls'][number]): Json {
  return {
    id: call.id,
    type: 'function',
    function: {
      name: call.name,
      arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
    },
  };
}
