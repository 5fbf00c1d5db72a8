import { defined } from '@strand/session';
import {
  contentText,
  conversationOf,
  NO_RESULT,
  type ConversationCall,
  type ConversationContent,
} from '../conversation.js';
import { apiCallId, namespacedUuid } from '../derived-id.js';
import { lastSeqOf, turnRunning, type ExportDocument } from '../document.js';
import { cwdOf, type HarnessTranscript } from '../harness-transcript.js';
import { MARKER_SLOT, sealExport, STRAND_EXPORT_MARKER } from '../marker.js';
import { sha256Hex } from '../sha256.js';
import { ExportLines } from '../text-chunks.js';

/** The Gemini CLI version whose chat format this writer follows (the bed's pin). */
export const GEMINI_FORMAT_VERSION = '0.61.0';

const NAMESPACE = 'strand.export.gemini';

export interface GeminiChat extends HarnessTranscript {
  /** The Gemini CLI session id: `gemini --resume <sessionId>`. */
  readonly sessionId: string;
  /** `session-<start to the minute>-<first 8 of the id>.jsonl`, under `tmp/<project>/chats/`. */
  readonly fileName: string;
}

type Json = Record<string, unknown>;

/**
 * A session as a Gemini CLI chat (`~/.gemini/tmp/<project>/chats/session-….jsonl`, the JSONL
 * form) that `gemini --resume <id>` continues: a header line (the session id, the project's
 * hash, the marker), prompts as `user` messages, each step's reply as one `gemini` message with
 * its tool calls and their results (`functionResponse` parts, as Gemini CLI records a finished
 * call), an aborted turn as its "Request cancelled." notice, the title as the `summary`. The
 * project folder is not the writer's: Gemini CLI names it in its registry (`projects.json`).
 * Ids are derived from the Strand id and seqs. Pure and deterministic.
 */
export function renderGeminiChat(document: ExportDocument): GeminiChat {
  const { header } = document;
  const cwd = cwdOf(header);
  const sessionId = geminiSessionId(header.id);
  const uuid = (name: string): string => namespacedUuid(NAMESPACE, `${header.id}:${name}`);
  const { items, leftOut } = conversationOf(document);
  const started = iso(header.createdAt);
  const lines = new ExportLines();
  lines.push(
    JSON.stringify({
      sessionId,
      projectHash: sha256Hex(cwd),
      startTime: started,
      lastUpdated: iso(document.events.at(-1)?.time ?? header.createdAt),
      kind: 'main',
      [STRAND_EXPORT_MARKER]: MARKER_SLOT,
    }),
  );
  const message = (record: Json): void => void lines.push(JSON.stringify(record));
  for (const entry of items) {
    const base = { id: uuid(`record:${entry.seq}`), timestamp: iso(entry.time) };
    switch (entry.kind) {
      case 'prompt':
        message({ ...base, type: 'user', content: geminiParts(entry.content) });
        break;
      case 'step':
        message({
          ...base,
          type: 'gemini',
          content: entry.texts.join('\n\n'),
          thoughts: [],
          ...defined({ model: entry.model }),
          ...(entry.calls.length === 0 ? {} : { toolCalls: entry.calls.map((c) => toolCall(c, entry.time)) }),
        });
        break;
      case 'turn-end':
        if (entry.reason !== 'completed') message({ ...base, type: 'info', content: 'Request cancelled.' });
        break;
    }
  }
  if (document.title !== undefined && document.title.trim() !== '')
    message({ $set: { summary: document.title } });
  const origin = { origin: header.id, cut: lastSeqOf(document), running: turnRunning(document) };
  return {
    sessionId,
    fileName: `session-${started.slice(0, 16).replace(/:/g, '-')}-${sessionId.slice(0, 8)}.jsonl`,
    cwd,
    text: items.length === 0 ? '' : sealExport(lines.lines(), origin),
    leftOut,
  };
}

/**
 * A prompt's parts: its text, or text and `inlineData` parts (base64, as Gemini CLI records an
 * image it read into a prompt and sends it to the model). An empty text between images is dropped.
 */
function geminiParts(content: ConversationContent): Json[] {
  if (typeof content === 'string') return [{ text: content }];
  return content.flatMap((part): Json[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }];
    return [{ inlineData: { mimeType: part.mediaType, data: part.base64 } }];
  });
}

/** A finished call as Gemini CLI records it: the call and its `functionResponse`. */
function toolCall(call: ConversationCall, time: number): Json {
  const id = apiCallId(call.id, 'strand_call_', NAMESPACE);
  const result = call.result ?? { content: NO_RESULT, isError: true, seq: call.seq, time };
  const output = contentText(result.content);
  return {
    id,
    name: call.name,
    args: call.input,
    result: [
      {
        functionResponse: {
          id,
          name: call.name,
          response: result.isError ? { error: output } : { output },
        },
      },
    ],
    status: result.isError ? 'error' : 'success',
    timestamp: iso(result.time),
  };
}

const iso = (time: number): string => new Date(time).toISOString();

/** The Gemini CLI session id an export of `strandId` resumes by: the same however it grows. */
export const geminiSessionId = (strandId: string): string => namespacedUuid(NAMESPACE, `session:${strandId}`);
