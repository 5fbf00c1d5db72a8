import {
  conversationOf,
  NO_RESULT,
  type ConversationContent,
  type ConversationStep,
} from '../conversation.js';
import { lastSeqOf, turnRunning, type ExportDocument } from '../document.js';
import { MARKER_SLOT, sealExport, STRAND_EXPORT_MARKER, type StrandExportMarker } from '../marker.js';
import { ExportLines } from '../text-chunks.js';
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
  const { items, leftOut } = conversationOf(document, { resultImages: true });
  const lines = new ExportLines();
  let parent: string | null = null;
  const write = (record: Json, uuid: string, time: number): void => {
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        // The first line's marker takes its digest once the rest is written.
        ...(lines.empty ? { [STRAND_EXPORT_MARKER]: MARKER_SLOT } : {}),
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
  for (const entry of items) {
    if (entry.kind === 'prompt')
      write(
        { type: 'user', message: { role: 'user', content: claudeContent(entry.content) } },
        claudeRecordUuid(header.id, entry.seq),
        entry.time,
      );
    else if (entry.kind === 'step') writeStep(entry, header.id, write);
  }
  if (document.title !== undefined && document.title.trim() !== '')
    lines.push(JSON.stringify({ type: 'custom-title', customTitle: document.title, sessionId }));
  return {
    sessionId,
    projectFolder,
    fileName: `${sessionId}.jsonl`,
    cwd,
    text: sealExport(lines.lines(), origin),
    leftOut,
  };
}

/**
 * One step: its text and tool calls as one assistant line, then its results as one user line of
 * `tool_result` blocks. A call the log holds no result for (a turn cut short) still gets one, an
 * error: the API refuses a `tool_use` without its `tool_result`.
 */
function writeStep(
  step: ConversationStep,
  strandId: string,
  write: (record: Json, uuid: string, time: number) => void,
): void {
  const uuid = claudeRecordUuid(strandId, step.seq);
  write(
    {
      type: 'assistant',
      message: {
        id: `msg_strand_${uuid.replace(/-/g, '')}`,
        type: 'message',
        role: 'assistant',
        ...(step.model === undefined ? {} : { model: step.model }),
        content: [
          ...step.texts.map((text) => ({ type: 'text', text })),
          ...step.calls.map((call) => ({
            type: 'tool_use',
            id: claudeToolUseId(call.id),
            name: call.name,
            input: call.input,
          })),
        ],
        stop_reason: step.calls.length > 0 ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    },
    uuid,
    step.time,
  );
  if (step.calls.length === 0) return;
  const first = step.calls.find((call) => call.result !== undefined)?.result;
  write(
    {
      type: 'user',
      message: {
        role: 'user',
        content: step.calls.map((call) => ({
          tool_use_id: claudeToolUseId(call.id),
          type: 'tool_result',
          content: call.result === undefined ? NO_RESULT : claudeContent(call.result.content),
          is_error: call.result?.isError ?? true,
        })),
      },
    },
    first === undefined ? claudeRecordUuid(strandId, step.seq, 1) : claudeRecordUuid(strandId, first.seq),
    first?.time ?? step.time,
  );
}

/**
 * Content as Claude Code writes it: the text alone, or text and `image` blocks (base64, as Claude
 * Code records a pasted image and as the API takes it in a prompt or a tool result). An empty
 * text between images is dropped: the API refuses an empty text block.
 */
function claudeContent(content: ConversationContent): string | Json[] {
  if (typeof content === 'string') return content;
  return content.flatMap((part): Json[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    return [{ type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.base64 } }];
  });
}
