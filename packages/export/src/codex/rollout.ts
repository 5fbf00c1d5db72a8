import {
  contentText,
  conversationOf,
  NO_RESULT,
  type ConversationContent,
  type ConversationItem,
} from '../conversation.js';
import { apiCallId, namespacedUuid } from '../derived-id.js';
import { lastSeqOf, turnRunning, type ExportDocument } from '../document.js';
import { cwdOf, type HarnessTranscript } from '../harness-transcript.js';
import { MARKER_SLOT, sealExport, STRAND_EXPORT_MARKER } from '../marker.js';
import { ExportLines } from '../text-chunks.js';

/** The Codex CLI version whose rollout format this writer follows (the bed's pin). */
export const CODEX_FORMAT_VERSION = '0.169.0';

const NAMESPACE = 'strand.export.codex';

export interface CodexRollout extends HarnessTranscript {
  /** The Codex thread id: `codex exec resume <threadId>`. */
  readonly threadId: string;
  /** The folder under `<codex home>/sessions/`: `YYYY/MM/DD` of the session's start (UTC). */
  readonly dayFolder: string;
  /** `rollout-<start>-<threadId>.jsonl`, the name Codex finds a thread's file by. */
  readonly fileName: string;
}

type Json = Record<string, unknown>;

/**
 * A session as a Codex rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<uuid>.jsonl`) that
 * `codex exec resume <uuid>` continues: the `session_meta` line (the cwd, the marker), per turn
 * `task_started`, a `turn_context` with the model, the prompt and replies as `message` items,
 * tool calls as `function_call` items with their `function_call_output`, and `task_complete` (or
 * `turn_aborted`). The title is a `thread_name_updated` event. Ids are derived from the Strand id
 * and seqs. Pure and deterministic: the same document gives the same bytes.
 */
export function renderCodexRollout(document: ExportDocument): CodexRollout {
  const { header } = document;
  const cwd = cwdOf(header);
  const threadId = codexThreadId(header.id);
  const uuid = (name: string): string => namespacedUuid(NAMESPACE, `${header.id}:${name}`);
  const callId = (id: string): string => apiCallId(id, 'call_strand_', NAMESPACE);
  const { items, leftOut } = conversationOf(document);
  const lines = new ExportLines();
  const line = (time: number, type: string, payload: Json, extra: Json = {}): void =>
    void lines.push(JSON.stringify({ timestamp: iso(time), type, ...extra, payload }));
  const item = (time: number, payload: Json): void => line(time, 'response_item', payload);
  const event = (time: number, payload: Json): void => line(time, 'event_msg', payload);

  const started = iso(header.createdAt);
  line(
    header.createdAt,
    'session_meta',
    {
      id: threadId,
      timestamp: started,
      cwd,
      originator: 'strand_export',
      cli_version: CODEX_FORMAT_VERSION,
      source: 'cli',
    },
    { [STRAND_EXPORT_MARKER]: MARKER_SLOT },
  );

  let turn: string | undefined;
  let model: string | undefined;
  let lastReply = '';
  const endTurn = (time: number, completed: boolean): void => {
    if (turn === undefined) return;
    event(
      time,
      completed
        ? { type: 'task_complete', turn_id: turn, last_agent_message: lastReply }
        : { type: 'turn_aborted', turn_id: turn, reason: 'interrupted' },
    );
    turn = undefined;
  };
  for (const [index, entry] of items.entries()) {
    switch (entry.kind) {
      case 'prompt':
        endTurn(entry.time, true);
        turn = uuid(`turn:${entry.seq}`);
        lastReply = '';
        event(entry.time, { type: 'task_started', turn_id: turn });
        model = modelOfTurn(items, index) ?? model;
        // Codex reads a turn's model from its context (all of it Codex's own settings but the model).
        if (model !== undefined)
          line(entry.time, 'turn_context', {
            turn_id: turn,
            cwd,
            approval_policy: 'on-request',
            sandbox_policy: { type: 'workspace-write' },
            model,
            summary: 'auto',
          });
        item(entry.time, {
          type: 'message',
          role: 'user',
          content: codexInput(entry.content),
        });
        break;
      case 'step':
        for (const text of entry.texts) {
          item(entry.time, {
            type: 'message',
            role: 'assistant',
            content: [{ type: 'output_text', text }],
          });
          lastReply = text;
        }
        for (const call of entry.calls)
          item(entry.time, {
            type: 'function_call',
            name: call.name,
            arguments: JSON.stringify(call.input),
            call_id: callId(call.id),
          });
        for (const call of entry.calls)
          item(call.result?.time ?? entry.time, {
            type: 'function_call_output',
            call_id: callId(call.id),
            // Codex keeps an output's text only (no error flag in its items): an error is said in it.
            output:
              call.result === undefined
                ? NO_RESULT
                : call.result.isError
                  ? `Error: ${contentText(call.result.content)}`
                  : contentText(call.result.content),
          });
        break;
      case 'turn-end':
        endTurn(entry.time, entry.reason === 'completed');
        break;
    }
  }
  if (document.title !== undefined && document.title.trim() !== '')
    event(document.events.at(-1)?.time ?? header.createdAt, {
      type: 'thread_name_updated',
      thread_id: threadId,
      thread_name: document.title,
    });
  const origin = { origin: header.id, cut: lastSeqOf(document), running: turnRunning(document) };
  const day = started.slice(0, 10);
  return {
    threadId,
    dayFolder: day.replace(/-/g, '/'),
    fileName: `rollout-${started.slice(0, 19).replace(/:/g, '-')}-${threadId}.jsonl`,
    cwd,
    text: items.length === 0 ? '' : sealExport(lines.lines(), origin),
    leftOut,
  };
}

/**
 * A prompt's content items: its text, or text and `input_image` items (a `data:` URL, as Codex
 * sends an attached image to the model). An empty text between images is dropped.
 */
function codexInput(content: ConversationContent): Json[] {
  if (typeof content === 'string') return [{ type: 'input_text', text: content }];
  return content.flatMap((part): Json[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ type: 'input_text', text: part.text }];
    return [{ type: 'input_image', image_url: `data:${part.mediaType};base64,${part.base64}` }];
  });
}

/** The model of the turn a prompt opens: its first step's. */
function modelOfTurn(items: readonly ConversationItem[], prompt: number): string | undefined {
  for (let i = prompt + 1; i < items.length; i++) {
    const entry = items[i]!;
    if (entry.kind === 'prompt') return undefined;
    if (entry.kind === 'step') return entry.model;
  }
  return undefined;
}

const iso = (time: number): string => new Date(time).toISOString();

/** The Codex thread id an export of `strandId` resumes by: the same however it grows. */
export const codexThreadId = (strandId: string): string => namespacedUuid(NAMESPACE, `session:${strandId}`);
