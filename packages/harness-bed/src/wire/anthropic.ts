import type { ServerResponse } from 'node:http';
import type { BedMessage, BedPart, BedRequest, SentAnswer } from './conversation.js';
import { DEFAULT_USAGE, splitText } from './conversation.js';
import { isRecord, records, str, type Json } from './json.js';
import { sseEvent, type Held } from './sse.js';

/** Anthropic Messages (`POST /v1/messages`), as Claude Code speaks it. */

export function readAnthropicRequest(body: Json, path: string, headers: BedRequest['headers']): BedRequest {
  const messages: BedMessage[] = records(body.messages).map((m) => ({
    role: m.role === 'assistant' ? 'assistant' : 'user',
    parts: anthropicParts(m.content),
  }));
  const system =
    typeof body.system === 'string'
      ? body.system
      : records(body.system)
          .map((b) => str(b.text) ?? '')
          .join('\n');
  return {
    wire: 'anthropic-messages',
    path,
    model: str(body.model) ?? '',
    stream: body.stream === true,
    system,
    messages,
    tools: records(body.tools).map((t) => str(t.name) ?? ''),
    headers,
  };
}

function anthropicParts(content: unknown): BedPart[] {
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  const parts: BedPart[] = [];
  for (const block of records(content)) {
    if (block.type === 'text') parts.push({ kind: 'text', text: str(block.text) ?? '' });
    else if (block.type === 'image' && isRecord(block.source))
      parts.push({
        kind: 'image',
        mediaType: str(block.source.media_type) ?? '',
        data: str(block.source.data) ?? '',
      });
    else if (block.type === 'tool_use')
      parts.push({
        kind: 'tool-call',
        id: str(block.id) ?? '',
        name: str(block.name) ?? '',
        input: block.input,
      });
    else if (block.type === 'tool_result')
      parts.push({
        kind: 'tool-result',
        id: str(block.tool_use_id) ?? '',
        output: resultText(block.content),
        isError: block.is_error === true,
      });
  }
  return parts;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return records(content)
    .filter((b) => b.type === 'text')
    .map((b) => str(b.text) ?? '')
    .join('\n');
}

export async function writeAnthropicAnswer(
  res: ServerResponse,
  request: BedRequest,
  answer: SentAnswer,
  id: string,
  held: Held,
): Promise<void> {
  const usage = answer.usage ?? DEFAULT_USAGE;
  const wireUsage = {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheCreationTokens ?? 0,
    cache_read_input_tokens: usage.cacheReadTokens ?? 0,
  };
  const stopReason = answer.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
  const content: Json[] = [];
  if (answer.text !== undefined) content.push({ type: 'text', text: answer.text });
  for (const call of answer.toolCalls)
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  if (!request.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model: request.model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: wireUsage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type: string, data: Json): void => void res.write(sseEvent({ type, ...data }, type));
  send('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...wireUsage, output_tokens: 1 },
    },
  });
  let index = 0;
  if (answer.text !== undefined) {
    send('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const piece of splitText(answer.text, answer.pieces ?? 2)) {
      send('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
      if (answer.hold === true) return held(res);
    }
    send('content_block_stop', { index });
    index++;
  }
  for (const call of answer.toolCalls) {
    send('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    send('content_block_delta', {
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) },
    });
    send('content_block_stop', { index });
    index++;
  }
  send('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.outputTokens },
  });
  send('message_stop', {});
  res.end();
}
