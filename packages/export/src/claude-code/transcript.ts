import { defined } from '@strand/session';
import {
  conversationOf,
  NO_RESULT,
  type ConversationContent,
  type ConversationStep,
} from '../conversation.js';
import { lastSeqOf, turnRunning, type ExportDocument } from '../document.js';
import { MARKER_SLOT, sealExport, STRAND_EXPORT_MARKER, type StrandExportMarker } from '../marker.js';
import { ExportLines } from '../text-chunks.js';
import {
  claudeAgentId,
  claudeProjectSlug,
  claudeRecordUuid,
  claudeSessionUuid,
  claudeToolUseId,
} from './ids.js';
import { linkChildren, type SidechainChild } from './sidechain-link.js';

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
  /** What the transcript could not hold, one line per kind (its sidechains' too, each named). */
  readonly leftOut: readonly string[];
  /** The children, each as Claude Code's own sidechain file (in the order given). */
  readonly sidechains: readonly ClaudeSidechain[];
}

/**
 * A subagent child as Claude Code 2.1 files it: `<project>/<sessionId>/subagents/agent-<agentId>.jsonl`,
 * every line `isSidechain: true` with the agent id and the parent's session id, and beside it
 * `agent-<agentId>.meta.json` naming the agent's type, description and the parent's call.
 */
export interface ClaudeSidechain {
  /** The child's Strand id (the marker's origin). */
  readonly origin: string;
  readonly agentId: string;
  /** The folder under the project folder: `<sessionId>/subagents`. */
  readonly folder: string;
  /** `agent-<agentId>.jsonl`. */
  readonly fileName: string;
  readonly text: string;
  /** `agent-<agentId>.meta.json`. */
  readonly metaFileName: string;
  /** The meta file's JSON, without a final newline, as Claude Code writes it. */
  readonly metaText: string;
}

type Json = Record<string, unknown>;

/** Where a transcript's lines go: the session, and for a sidechain the agent. */
interface LinePlace {
  readonly cwd: string;
  readonly sessionId: string;
  readonly agentId?: string;
}

/**
 * A session as a Claude Code transcript (`~/.claude/projects/<cwd slug>/<uuid>.jsonl`) that
 * `claude --resume <uuid>` continues: prompts as `user` lines, replies and tool calls as
 * `assistant` lines (`text` and `tool_use` blocks of one step together), results as `user` lines
 * of `tool_result` blocks, each line linked to the one before (`parentUuid`), the model on each
 * reply, the title as a `custom-title` record. Ids are derived from the Strand id and seqs.
 * Each of `childDocuments` (the session's subagent children) becomes a sidechain file
 * (`ClaudeSidechain`), linked from the parent's call that started it (`linkChildren`).
 *
 * Pure and deterministic: the same document gives the same bytes.
 */
export function renderClaudeTranscript(
  document: ExportDocument,
  childDocuments: readonly ExportDocument[] = [],
): ClaudeTranscript {
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
  const { items, leftOut } = conversationOf(document, { resultImages: true });
  const sidechains: ClaudeSidechain[] = [];
  // The parent's call that started each child written answers with the agent, as Claude Code's does.
  const agents = new Map<string, Json>();
  for (const child of linkChildren(items, childDocuments)) {
    const id = child.document.header.id;
    const rendered = renderSidechain(child, { cwd, sessionId });
    if (rendered === undefined) {
      leftOut.push(`subagent ${id} has no conversation yet: not carried`);
      continue;
    }
    sidechains.push(rendered.sidechain);
    for (const line of rendered.leftOut) leftOut.push(`in subagent ${id}: ${line}`);
    if (child.call !== undefined) agents.set(child.call.id, agentResult(child));
  }
  const lines = writeConversation(document, items, { cwd, sessionId }, agents);
  if (document.title !== undefined && document.title.trim() !== '')
    lines.push(JSON.stringify({ type: 'custom-title', customTitle: document.title, sessionId }));
  return {
    sessionId,
    projectFolder,
    fileName: `${sessionId}.jsonl`,
    cwd,
    text: sealExport(lines, originOf(document)),
    leftOut,
    sidechains,
  };
}

const originOf = (document: ExportDocument): Omit<StrandExportMarker, 'digest' | 'bytes'> => ({
  origin: document.header.id,
  cut: lastSeqOf(document),
  running: turnRunning(document),
});

/**
 * A child's own log as its sidechain file and meta file, with what it could not hold; undefined
 * when it has no conversation yet.
 */
function renderSidechain(
  child: SidechainChild,
  parent: LinePlace,
): { sidechain: ClaudeSidechain; leftOut: readonly string[] } | undefined {
  const agentId = claudeAgentId(child.document.header.id);
  const { items, leftOut } = conversationOf(child.own, { resultImages: true });
  const lines = writeConversation(child.own, items, { ...parent, agentId }, new Map());
  if (lines.length === 0) return undefined;
  const sidechain: ClaudeSidechain = {
    origin: child.document.header.id,
    agentId,
    folder: `${parent.sessionId}/subagents`,
    fileName: `agent-${agentId}.jsonl`,
    // The marker's cut is the child's whole log (the file holds its own part).
    text: sealExport(lines, originOf(child.document)),
    metaFileName: `agent-${agentId}.meta.json`,
    metaText: JSON.stringify({
      agentType: child.agentType,
      ...defined({ description: child.description }),
      ...(child.call === undefined ? {} : { toolUseId: claudeToolUseId(child.call.id) }),
    }),
  };
  return { sidechain, leftOut };
}

/** What Claude Code records beside an `Agent` call's result (`toolUseResult`): the agent it started. */
function agentResult(child: SidechainChild): Json {
  return {
    status: 'completed',
    prompt: child.prompt,
    agentId: claudeAgentId(child.document.header.id),
    agentType: child.agentType,
  };
}

/** The conversation's records as lines, each chained to the one before; the first carries the marker's slot. */
function writeConversation(
  document: ExportDocument,
  items: ReturnType<typeof conversationOf>['items'],
  place: LinePlace,
  agents: ReadonlyMap<string, Json>,
): string[] {
  const strandId = document.header.id;
  const lines = new ExportLines();
  let parent: string | null = null;
  const write = (record: Json, uuid: string, time: number): void => {
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: place.agentId !== undefined,
        ...defined({ agentId: place.agentId }),
        // The first line's marker takes its digest once the rest is written.
        ...(lines.empty ? { [STRAND_EXPORT_MARKER]: MARKER_SLOT } : {}),
        ...record,
        uuid,
        timestamp: new Date(time).toISOString(),
        userType: 'external',
        cwd: place.cwd,
        sessionId: place.sessionId,
        version: CLAUDE_CODE_FORMAT_VERSION,
      }),
    );
    parent = uuid;
  };
  for (const entry of items) {
    if (entry.kind === 'prompt')
      write(
        { type: 'user', message: { role: 'user', content: claudeContent(entry.content) } },
        claudeRecordUuid(strandId, entry.seq),
        entry.time,
      );
    else if (entry.kind === 'step') writeStep(entry, strandId, write, agents);
  }
  return lines.lines();
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
  agents: ReadonlyMap<string, Json>,
): void {
  const uuid = claudeRecordUuid(strandId, step.seq);
  write(
    {
      type: 'assistant',
      message: {
        id: `msg_strand_${uuid.replace(/-/g, '')}`,
        type: 'message',
        role: 'assistant',
        ...defined({ model: step.model }),
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
  // `toolUseResult` is one call's: Claude Code writes one result per line, this writer a step's
  // results in one line, so it is carried when the step made that one call (an agent started alone).
  const only = step.calls.length === 1 ? step.calls[0]! : undefined;
  const agent = only?.result?.isError === false ? agents.get(only.id) : undefined;
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
      ...(agent === undefined
        ? {}
        : { toolUseResult: { ...agent, content: [{ type: 'text', text: only!.result!.content }] } }),
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
