import { defined } from '@strand/session';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { descriptorEvent } from '@strand/subagent';
import type { SessionEventInput } from '@strand/session';
import { AttachmentSink, toContent, type ContentBlock } from '../mapping/attachments.js';
import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { TranscriptBuilder, type Author } from '../mapping/transcript-builder.js';
import { ExportContinuation, type ContinuedFrom } from '../mapping/strand-export.js';
import { usage, type Usage } from '../mapping/usage.js';
import type { SessionPeek, SourceUnit } from '../run/harness-importer.js';
import { count, isRecord, str, timeOf, type JsonRecord } from '../source/json-record.js';
import { ChatFolder, where, type ChatMessage, type ChatRow } from './fold-chat.js';
import { mapWholeFile, type TranscriptFold } from '../mapping/transcript-fold.js';
import { readChat } from './read-chat.js';
import { geminiId, type GeminiFacts } from './peek.js';

const PROVIDER = 'google';
// The notice gemini-cli records when the person cancels a running request.
const CANCELLED = 'Request cancelled.';
// The context Gemini CLI and the a2a-server inject as the first user message of a chat.
const SESSION_CONTEXT = /^\s*<session_context>/;
// How gemini-cli frames the files a prompt names with `@` (0.6x): its own text parts around
// their content, not what the person typed.
const REFERENCED_FILES_FRAME = /^\s*--- (?:Content from referenced files|End of content) ---\s*$/;
// Tool call states that mean the call never finished.
const UNFINISHED = new Set(['scheduled', 'validating', 'awaiting_approval', 'executing']);

/** Maps one Gemini CLI chat file (whole-JSON or JSONL) to one session. */
export async function mapGemini(unit: SourceUnit, peek: SessionPeek): Promise<MappedFile> {
  if (isJsonl(unit.file)) return mapWholeFile(unit.file, false, foldGeminiLines(unit, peek));
  const reports = new FileReports(unit.file);
  const read = await readChat(unit.file, reports);
  if (read.kind === 'failed') return { kind: 'failed', reason: read.reason, reports };
  const mapping = new GeminiMapping(unit, peek, reports);
  mapping.rows(read.folded.rows, 0, read.folded.meta);
  return mapping.result(read.folded.meta, read.hash);
}

/**
 * The mapping of `mapGemini` as a fold, for a JSONL chat: live ingest feeds it only appended
 * rows. Undefined for a whole-JSON chat, which gemini-cli rewrites whole on every update.
 */
export function incrementalGemini(unit: SourceUnit, peek: SessionPeek): Promise<TranscriptFold | undefined> {
  return Promise.resolve(isJsonl(unit.file) ? foldGeminiLines(unit, peek) : undefined);
}

const isJsonl = (file: string): boolean => file.endsWith('.jsonl');

/** Lines fold to rows as gemini-cli's loader reads them (`ChatFolder`); rows map as they come. */
function foldGeminiLines(unit: SourceUnit, peek: SessionPeek): TranscriptFold {
  const reports = new FileReports(unit.file);
  const folder = new ChatFolder(reports);
  const mapping = new GeminiMapping(unit, peek, reports);
  // A Strand export Gemini CLI resumed: its first own row follows the exported prefix.
  const exported = new ExportContinuation('gemini');
  let first = true;
  let mapped = 0;
  return {
    feed(line) {
      const continued = exported.before(line);
      if (continued !== undefined) mapping.continuesAt(folder.rows.length, continued);
      folder.line(line, first);
      if (line.text.trim().length > 0) first = false;
      return Promise.resolve();
    },
    async result(end) {
      const rows = folder.rows;
      mapping.rows(rows, mapped, folder.meta);
      mapped = rows.length;
      const result = await mapping.result(folder.meta, end.hash);
      return result.kind === 'sessions' ? { ...result, ...exported.facts() } : result;
    },
  };
}

/** Rows of one chat mapped to the events of its session, row by row. */
class GeminiMapping {
  readonly #builder = new TranscriptBuilder();
  readonly #sink = new AttachmentSink();
  readonly #seen = new RowMemory();
  readonly #unit: SourceUnit;
  readonly #peek: SessionPeek;
  readonly #reports: FileReports;
  /** A subagent's chat: its prompts are the parent agent's. */
  readonly #promptAuthor: Author;
  /** The row the harness's first own record made, in a continued Strand export. */
  #continuation: { readonly row: number; readonly data: ContinuedFrom } | undefined;

  constructor(unit: SourceUnit, peek: SessionPeek, reports: FileReports) {
    this.#unit = unit;
    this.#peek = peek;
    this.#reports = reports;
    const facts = peek.facts as GeminiFacts;
    this.#promptAuthor =
      facts.parentSessionId !== undefined || facts.chat?.delegatedBy !== undefined ? 'agent' : 'human';
  }

  /**
   * Maps `rows` from index `from` on: upserts as what they add (the prefix law of
   * `TranscriptBuilder`): the file may still grow, and a row written again must not change what
   * its first write mapped to.
   */
  /** The rows from index `row` on are the harness's own, after a Strand export (`strand-export.ts`). */
  continuesAt(row: number, data: ContinuedFrom): void {
    this.#continuation = { row, data };
  }

  rows(rows: readonly ChatRow[], from: number, meta: JsonRecord): void {
    // A message without a time of its own falls back to the chat's start (the metadata line).
    const fallback = timeOf(meta.startTime) ?? 0;
    for (let i = from; i < rows.length; i++) {
      const row = rows[i]!;
      if (i === this.#continuation?.row) this.#builder.continuedFrom(this.#continuation.data, fallback);
      if (row.kind === 'title') this.#builder.explicitTitle(row.text, undefined);
      else
        mapMessage(
          row.message,
          this.#builder,
          this.#sink,
          this.#reports,
          fallback,
          this.#seen,
          this.#promptAuthor,
        );
    }
  }

  async result(meta: JsonRecord, hash: string): Promise<MappedFile> {
    const builder = this.#builder;
    const reports = this.#reports;
    const unit = this.#unit;
    const facts = this.#peek.facts as GeminiFacts;
    builder.finish();
    if (!builder.hasConversation) return { kind: 'empty', reason: 'no conversation messages', reports, hash };
    const startTime = timeOf(meta.startTime);
    const id = this.#peek.primaryId;
    const cwd = cwdOf(meta) ?? (await projectRoot(unit.file));
    const createdAt = startTime ?? builder.events[0]?.time ?? 0;
    const header = {
      id,
      createdAt,
      ...defined({ cwd }),
      source: { harness: 'gemini', sourceId: facts.sessionId } as const,
    };
    let plan: SessionPlan = { header, events: builder.events, attachments: this.#sink.items };
    const parentSessionId =
      facts.parentSessionId ?? (facts.chat?.delegatedBy !== undefined ? facts.sessionId : undefined);
    if (parentSessionId !== undefined) {
      const label = facts.chat?.delegatedBy?.agent;
      const descriptor: SessionEventInput = {
        ...descriptorEvent(
          label === undefined ? { version: 2, mode: 'one-shot' } : { version: 2, mode: 'one-shot', label },
        ),
        time: builder.events[0]?.time ?? createdAt,
      };
      plan = {
        header: {
          ...header,
          parentSession: geminiId({ sessionId: parentSessionId }, unit.file),
          origin: 'subagent',
          delegationDepth: 1,
        },
        events: [descriptor, ...builder.events],
        attachments: this.#sink.items,
      };
    }
    return { kind: 'sessions', plans: [plan], reports, hash };
  }
}

/** What earlier rows of a chat already mapped: message ids with the text written, tool calls announced. */
class RowMemory {
  readonly #messages = new Map<string, string>();
  readonly #calls = new Set<string>();

  /** True the first time a message id is seen (a message without an id is always new). */
  firstWrite(record: JsonRecord): boolean {
    const id = str(record.id);
    if (id === undefined) return true;
    if (this.#messages.has(id)) return false;
    this.#messages.set(id, '');
    return true;
  }

  /**
   * The text a row adds to what its message already wrote: the new tail when the text only grew
   * (a reply written empty, then whole), nothing when it is unchanged or was rewritten otherwise
   * (what was shown is never taken back).
   */
  addedText(record: JsonRecord, text: string): string {
    const id = str(record.id);
    if (id === undefined) return text;
    const before = this.#messages.get(id) ?? '';
    if (text.length <= before.length || !text.startsWith(before)) return '';
    this.#messages.set(id, text);
    return text.slice(before.length);
  }

  /** True the first time a call id is announced. */
  newCall(id: string): boolean {
    if (this.#calls.has(id)) return false;
    this.#calls.add(id);
    return true;
  }
}

function mapMessage(
  message: ChatMessage,
  builder: TranscriptBuilder,
  sink: AttachmentSink,
  reports: FileReports,
  fallback: number,
  seen: RowMemory,
  author: Author,
): void {
  const m = message.record;
  const time = timeOf(m.timestamp) ?? builder.lastTime ?? fallback;
  const first = seen.firstWrite(m);
  // A message written again (gemini-cli rewrites a reply whole once its tools finish) adds only
  // what is new: tool calls not announced yet, results of calls that finished since.
  if (!first && m.type !== 'gemini') return;
  switch (m.type) {
    case 'user': {
      const blocks = partsToBlocks(m.content, sink).filter(
        (b) => !(b.type === 'text' && REFERENCED_FILES_FRAME.test(b.text)),
      );
      if (blocks.length === 0) return; // only functionResponse parts: results already on the tool calls
      const shown = m.displayContent === undefined ? undefined : partsToBlocks(m.displayContent, sink);
      // Gemini CLI (0.61) and the a2a-server open every chat with an injected `<session_context>`
      // (date, OS, folder): no conversation by itself, so the context-only chat the CLI starts
      // beside a chat it resumes is no session.
      if (SESSION_CONTEXT.test(textOf(blocks))) {
        builder.harnessContext(toContent(blocks), time);
        return;
      }
      // A row whose displayed form has no text was written by the CLI itself ("Please continue.").
      if (shown !== undefined && shown.length === 0) {
        builder.note(toContent(blocks), time);
        return;
      }
      builder.prompt(toContent(blocks), author, time, { titleText: textOf(shown ?? blocks) });
      return;
    }
    case 'gemini': {
      const calls = Array.isArray(m.toolCalls) ? m.toolCalls.filter(isRecord) : [];
      const announced = calls.filter((call) => seen.newCall(str(call.id) ?? ''));
      const blocks = partsToBlocks(m.content, sink);
      const added = seen.addedText(m, textOf(blocks));
      if (first || announced.length > 0 || added.length > 0) {
        const model = str(m.model);
        if (model !== undefined) builder.assistantRoute({ provider: PROVIDER, model }, time);
      }
      if (first) for (const block of blocks) builder.assistantBlock(block, time);
      else builder.assistantText(added, time);
      for (const call of announced)
        builder.assistantToolCall(
          str(call.id) ?? '',
          str(call.name) ?? 'unknown',
          JSON.stringify(call.args ?? {}),
          time,
        );
      if (first && isRecord(m.tokens)) {
        builder.assistantUsage(geminiUsage(m.tokens), 'replace');
      }
      builder.flushAssistant();
      for (const call of calls) {
        const status = str(call.status);
        if (status !== undefined && UNFINISHED.has(status) && call.result === undefined) continue;
        builder.toolResult(
          str(call.id) ?? '',
          resultOf(call),
          status === 'error' || status === 'cancelled',
          timeOf(call.timestamp) ?? time,
        );
      }
      return;
    }
    case 'info':
      if (typeof m.content === 'string' && m.content.trim() === CANCELLED) builder.endTurn('aborted', time);
      return;
    case 'error':
    case 'warning':
      // Interleaved notices (MCP discovery failures and the like), not conversation.
      return;
    default:
      reports.skipRecord(message.line, `${where(message.index)}unknown message type "${String(m.type)}"`);
  }
}

/** Gemini content: a string, or parts (`text`, `inlineData` images; function parts are tool traffic). */
function partsToBlocks(content: unknown, sink: AttachmentSink): ContentBlock[] {
  if (typeof content === 'string') return content.length === 0 ? [] : [{ type: 'text', text: content }];
  const parts = Array.isArray(content) ? content : isRecord(content) ? [content] : [];
  const out: ContentBlock[] = [];
  for (const part of parts) {
    if (typeof part === 'string') out.push({ type: 'text', text: part });
    else if (!isRecord(part)) continue;
    else if (typeof part.text === 'string') {
      if (part.thought !== true) out.push({ type: 'text', text: part.text });
    } else if (isRecord(part.inlineData) && typeof part.inlineData.data === 'string') {
      out.push(sink.image(part.inlineData.data, str(part.inlineData.mimeType) ?? 'application/octet-stream'));
    } else if (isRecord(part.fileData))
      out.push({ type: 'text', text: `[file: ${str(part.fileData.fileUri) ?? 'unknown'}]` });
  }
  return out;
}

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

/** A tool call's output: the functionResponse `output`/`error`, else its display text. */
function resultOf(call: JsonRecord): string {
  const texts: string[] = [];
  const results = Array.isArray(call.result) ? call.result : [];
  for (const part of results) {
    if (!isRecord(part) || !isRecord(part.functionResponse)) continue;
    const response = part.functionResponse.response;
    if (isRecord(response)) {
      const value = response.output ?? response.error ?? response;
      texts.push(typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
  if (texts.length > 0) return texts.join('\n');
  if (typeof call.resultDisplay === 'string') return call.resultDisplay;
  return call.resultDisplay === undefined ? '' : JSON.stringify(call.resultDisplay);
}

function cwdOf(meta: JsonRecord): string | undefined {
  return Array.isArray(meta.directories) ? str(meta.directories[0]) : undefined;
}

/** `tmp/<project>/.project_root` names the project folder when the chat itself does not. */
async function projectRoot(file: string): Promise<string | undefined> {
  for (const candidate of [
    path.join(path.dirname(file), '..', '.project_root'),
    path.join(path.dirname(file), '..', '..', '.project_root'),
  ]) {
    try {
      const text = (await fsp.readFile(candidate, 'utf8')).trim();
      if (text.length > 0) return text;
    } catch {
      // No marker at this level; try the next, or leave cwd unknown.
    }
  }
  return undefined;
}

/**
 * Gemini CLI's `tokens` in the log's meaning: `input` (the prompt) includes `cached`, which comes
 * out as cache reads, and tool-use prompt tokens (`tool`) are input of their own; thoughts are
 * output the model spent reasoning (Gemini counts them apart from `output`; `total` sums all).
 */
function geminiUsage(tokens: JsonRecord): Usage {
  const cached = count(tokens.cached);
  const thoughts = count(tokens.thoughts);
  return usage({
    input: Math.max(0, count(tokens.input) - cached) + count(tokens.tool),
    cacheRead: cached,
    output: count(tokens.output) + thoughts,
    reasoning: thoughts,
  });
}
