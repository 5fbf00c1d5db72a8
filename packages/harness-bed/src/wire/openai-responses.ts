import type { ServerResponse } from 'node:http';
import type { BedMessage, BedPart, BedRequest, SentAnswer } from './conversation.js';
import { DEFAULT_USAGE, splitText } from './conversation.js';
import { isRecord, records, str, type Json } from './json.js';
import { sseEvent, type Held } from './sse.js';

/** OpenAI Responses (`POST /v1/responses`), as Codex CLI speaks it (`wire_api = "responses"`). */

export function readResponsesRequest(body: Json, path: string, headers: BedRequest['headers']): BedRequest {
  const messages: BedMessage[] = [];
  const system: string[] = [str(body.instructions) ?? ''];
  const push = (role: BedMessage['role'], part: BedPart): void => {
    const last = messages.at(-1);
    // Calls and their outputs arrive as items of their own; consecutive ones form one message.
    if (
      last !== undefined &&
      last.role === role &&
      part.kind !== 'text' &&
      last.parts.every((p) => p.kind !== 'text')
    )
      (last.parts as BedPart[]).push(part);
    else messages.push({ role, parts: [part] });
  };
  for (const item of records(body.input)) {
    const type = str(item.type) ?? (item.role !== undefined ? 'message' : '');
    if (type === 'message') {
      const role = str(item.role);
      const parts = responsesContent(item.content);
      if (role === 'developer' || role === 'system') {
        system.push(parts.map((p) => (p.kind === 'text' ? p.text : '')).join('\n'));
        continue;
      }
      messages.push({ role: role === 'assistant' ? 'assistant' : 'user', parts });
    } else if (type === 'function_call')
      push('assistant', {
        kind: 'tool-call',
        id: str(item.call_id) ?? '',
        name: str(item.name) ?? '',
        input: parseArguments(item.arguments),
      });
    else if (type === 'custom_tool_call')
      push('assistant', {
        kind: 'tool-call',
        id: str(item.call_id) ?? '',
        name: str(item.name) ?? '',
        input: str(item.input) ?? '',
      });
    else if (type === 'function_call_output' || type === 'custom_tool_call_output')
      push('user', {
        kind: 'tool-result',
        id: str(item.call_id) ?? '',
        output: outputText(item.output),
        isError: false,
      });
  }
  const text = isRecord(body.text) && isRecord(body.text.format) ? body.text.format : undefined;
  return {
    wire: 'openai-responses',
    path,
    model: str(body.model) ?? '',
    stream: body.stream === true,
    system: system.filter((s) => s.length > 0).join('\n'),
    messages,
    tools: records(body.tools).map((t) => str(t.name) ?? str(t.type) ?? ''),
    ...(text?.type === 'json_schema' ? { jsonSchema: text.schema } : {}),
    headers,
  };
}

function responsesContent(content: unknown): BedPart[] {
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  const parts: BedPart[] = [];
  for (const block of records(content)) {
    if (block.type === 'input_text' || block.type === 'output_text')
      parts.push({ kind: 'text', text: str(block.text) ?? '' });
    else if (block.type === 'input_image') {
      const url = str(block.image_url) ?? '';
      const match = /^data:([^;]+);base64,(.*)$/s.exec(url);
      parts.push({ kind: 'image', mediaType: match?.[1] ?? '', data: match?.[2] ?? url });
    }
  }
  return parts;
}

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output))
    return records(output)
      .map((b) => str(b.text) ?? '')
      .join('\n');
  if (isRecord(output) && typeof output.content === 'string') return output.content;
  return JSON.stringify(output ?? null);
}

export async function writeResponsesAnswer(
  res: ServerResponse,
  request: BedRequest,
  answer: SentAnswer,
  id: string,
  held: Held,
): Promise<void> {
  const usage = answer.usage ?? DEFAULT_USAGE;
  const cached = usage.cacheReadTokens ?? 0;
  const wireUsage = {
    // Responses counts cached input inside input_tokens, reasoning inside output_tokens.
    input_tokens: usage.inputTokens + cached,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + cached + usage.outputTokens,
  };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let seq = 0;
  const send = (type: string, data: Json): void =>
    void res.write(sseEvent({ type, sequence_number: seq++, ...data }, type));
  const response = { id, object: 'response', model: request.model, status: 'in_progress', output: [] };
  send('response.created', { response });
  send('response.in_progress', { response });
  const output: Json[] = [];
  if (answer.text !== undefined) {
    const itemId = `msg_${id}`;
    const index = output.length;
    send('response.output_item.added', {
      output_index: index,
      item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] },
    });
    send('response.content_part.added', {
      output_index: index,
      item_id: itemId,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    });
    for (const piece of splitText(answer.text, answer.pieces ?? 2)) {
      send('response.output_text.delta', {
        output_index: index,
        item_id: itemId,
        content_index: 0,
        delta: piece,
      });
      if (answer.hold === true) return held(res);
    }
    send('response.output_text.done', {
      output_index: index,
      item_id: itemId,
      content_index: 0,
      text: answer.text,
    });
    const item = {
      type: 'message',
      id: itemId,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: answer.text, annotations: [] }],
    };
    send('response.output_item.done', { output_index: index, item });
    output.push(item);
  }
  for (const call of answer.toolCalls) {
    const index = output.length;
    const item =
      typeof call.input === 'string'
        ? {
            type: 'custom_tool_call',
            id: `ctc_${call.id}`,
            call_id: call.id,
            name: call.name,
            input: call.input,
            status: 'completed',
          }
        : {
            type: 'function_call',
            id: `fc_${call.id}`,
            call_id: call.id,
            name: call.name,
            arguments: JSON.stringify(call.input),
            ...(call.namespace === undefined ? {} : { namespace: call.namespace }),
            status: 'completed',
          };
    send('response.output_item.added', { output_index: index, item });
    send('response.output_item.done', { output_index: index, item });
    output.push(item);
  }
  send('response.completed', { response: { ...response, status: 'completed', output, usage: wireUsage } });
  res.end();
}
