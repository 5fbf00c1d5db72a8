import { readCoreEvent, type MessageContent, type SessionEvent } from '@strand/session';
import { callInput, plainText } from '../conversation.js';
import { lastSeqOf, turnRunning, type ExportDocument } from '../document.js';
import { MARKER_SLOT, sealExport, STRAND_EXPORT_MARKER, type StrandExportMarker } from '../marker.js';
import { claudeProjectSlug, claudeRecordUuid, claudeSessionUuid, claudeToolUseId } from './ids.js';

/** The Claude Code version whose transcript format this writer follows (the bed's pin). */
export const CLAUDE_CODE_FORMAT_VERSION = '2.1.328';

export { STRAND_EXPORT_MARKER, strandExportOf } from '../marker.js';

/** The marker of a Claude Code export (`marker.ts`: the same for every harness). */
export type ClaudeExportMarker = StrandExportMarker;

export class ClaudeExportError extends Error {
  override readonly name = 'ClaudeExportError';
  constructor(
    readonly code: 'EXPORT_NO_CWD' | 'EXPORT_CWD_TOO_LONG',
    message: string,
  ) {
    super(message);
  }
}

export interface ClaudeTranscript {
  /** The Claude Code session id: `claude --resume <sessionId>`. */
  readonly sessionId: string;
  /** The folder under `<claude home>/projects/` Claude Code looks in for the session's `cwd`. */
  readonly projectFolder: string;
  /** `<sessionId>.jsonl`. */
  readonly fileName: string;
  readonly cwd: string;
  /** The JSONL, one record a line, each line ended. */
  readonly text: string;
  /** What the transcript could not hold, one line per kind. */
  readonly leftOut: readonly string[];
}

type Json = Record<string, unknown>;
type Block = Json;

/**
 * A session as a Claude Code transcript (`~/.claude/projects/<cwd slug>/<uuid>.jsonl`) that
 * `claude --resume <uuid>` continues: prompts as `user` lines, replies and tool calls as
 * `assistant` lines (`text` and `tool_use` blocks of one step together), results as `user` lines
 * of `tool_result` blocks, each line linked to the one before (`parentUuid`), the model on each
 * reply, the title as a `custom-title` record. Ids are derived from the Strand id and seqs.
 *
 * Pure and deterministic: the same document gives the same bytes.
 */
export function renderClaudeTranscript(document: ExportDocument): ClaudeTranscript {
  const { header } = document;
  if (header.cwd === undefined)
    throw new ClaudeExportError(
      'EXPORT_NO_CWD',
      `session ${header.id} has no working folder to file it under`,
    );
  const projectFolder = claudeProjectSlug(header.cwd);
  if (projectFolder === undefined)
    throw new ClaudeExportError(
      'EXPORT_CWD_TOO_LONG',
      `the working folder of ${header.id} is too long a path for Claude Code's folder names`,
    );
  const cwd = header.cwd;
  const sessionId = claudeSessionUuid(header.id);
  const origin = { origin: header.id, cut: lastSeqOf(document), running: turnRunning(document) };
  const left = new Map<string, number>();
  const leave = (kind: string): void => void left.set(kind, (left.get(kind) ?? 0) + 1);
  const lines: string[] = [];
  let parent: string | null = null;
  let model: string | undefined;
  const answered = answeredCalls(document.events);

  const called = new Set<string>();
  const write = (record: Json, uuid: string, time: number): void => {
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        // The first line's marker takes its digest once the rest is written.
        ...(lines.length === 0 ? { [STRAND_EXPORT_MARKER]: MARKER_SLOT } : {}),
        ...record,
        uuid,
        timestamp: new Date(time).toISOString(),
        userType: 'external',
        cwd,
        sessionId,
        version: CLAUDE_CODE_FORMAT_VERSION,
      }),
    );
    parent = uuid;
  };

  // One step's reply (text and tool calls) is one assistant line; its results one user line.
  let reply: { blocks: Block[]; seq: number; time: number; calls: string[] } | undefined;
  let results: { blocks: Block[]; seq: number; time: number } | undefined;
  const flushReply = (): void => {
    if (reply === undefined) return;
    const { blocks, seq, time, calls } = reply;
    reply = undefined;
    write(
      {
        type: 'assistant',
        message: {
          id: `msg_strand_${claudeRecordUuid(header.id, seq).replace(/-/g, '')}`,
          type: 'message',
          role: 'assistant',
          ...(model === undefined ? {} : { model }),
          content: blocks,
          stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      },
      claudeRecordUuid(header.id, seq),
      time,
    );
    // A call the log holds no result for (a turn cut short) still needs one: the API refuses a
    // tool_use without its tool_result.
    const missing = calls.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      write(
        {
          type: 'user',
          message: {
            role: 'user',
            content: missing.map((id) => ({
              tool_use_id: claudeToolUseId(id),
              type: 'tool_result',
              content: 'No result was recorded for this call.',
              is_error: true,
            })),
          },
        },
        claudeRecordUuid(header.id, seq, 1),
        time,
      );
      leave('tool call without a result (an error result written in its place)');
    }
  };
  const flushResults = (): void => {
    if (results === undefined) return;
    const { blocks, seq, time } = results;
    results = undefined;
    write(
      { type: 'user', message: { role: 'user', content: blocks } },
      claudeRecordUuid(header.id, seq),
      time,
    );
  };
  const flush = (): void => {
    flushReply();
    flushResults();
  };

  for (const event of document.events) {
    const core = readCoreEvent(event);
    if (core === undefined) {
      leave(`\`${event.type}\` record`);
      continue;
    }
    switch (core.type) {
      case 'user/message':
        flush();
        if (core.data.author === 'system') {
          leave('harness note');
          break;
        }
        write(
          { type: 'user', message: { role: 'user', content: promptText(core.data.content, leave) } },
          claudeRecordUuid(header.id, event.seq),
          event.time,
        );
        break;
      case 'assistant/message': {
        flushResults();
        const text = plainText(core.data.content, leave);
        if (text === '') break;
        reply ??= { blocks: [], seq: event.seq, time: event.time, calls: [] };
        reply.blocks.push({ type: 'text', text });
        break;
      }
      case 'tool/call':
        flushResults();
        reply ??= { blocks: [], seq: event.seq, time: event.time, calls: [] };
        reply.blocks.push({
          type: 'tool_use',
          id: claudeToolUseId(core.data.callId),
          name: core.data.name,
          input: callInput(core.data.arguments),
        });
        reply.calls.push(core.data.callId);
        called.add(core.data.callId);
        break;
      case 'tool/result':
        flushReply();
        if (!called.has(core.data.callId)) {
          leave('tool result without its call');
          break;
        }
        results ??= { blocks: [], seq: event.seq, time: event.time };
        results.blocks.push({
          tool_use_id: claudeToolUseId(core.data.callId),
          type: 'tool_result',
          content: plainText(core.data.content, leave),
          is_error: core.data.isError === true,
        });
        break;
      case 'model/selection':
      case 'request/header':
        model = core.data.model;
        break;
      case 'session/command':
      case 'session/command-output':
        leave('harness command');
        break;
      case 'step/end':
      case 'turn/end':
        flush();
        break;
      // Structure and bookkeeping Claude Code keeps its own way, or not at all.
      case 'turn/start':
      case 'step/start':
      case 'session/title':
      case 'session/cost':
      case 'agent-preset/select':
        break;
    }
  }
  flush();
  if (document.title !== undefined && document.title.trim() !== '')
    lines.push(JSON.stringify({ type: 'custom-title', customTitle: document.title, sessionId }));
  return {
    sessionId,
    projectFolder,
    fileName: `${sessionId}.jsonl`,
    cwd,
    text: sealExport(lines, origin),
    leftOut: [...left].map(([kind, n]) => `${n} × ${kind} not carried`),
  };
}

/** A prompt as Claude Code stores a typed one: a string (images are named; the bytes are not in the document). */
function promptText(content: MessageContent, leave: (kind: string) => void): string {
  return plainText(content, leave);
}

function answeredCalls(events: readonly SessionEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const event of events) {
    const core = readCoreEvent(event);
    if (core?.type === 'tool/result') ids.add(core.data.callId);
  }
  return ids;
}
