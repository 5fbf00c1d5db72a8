import { defined } from '@strand/session';
import { AttachmentSink, toContent, type ContentBlock } from '../mapping/attachments.js';
import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { TranscriptBuilder } from '../mapping/transcript-builder.js';
import { mapWholeFile, type TranscriptFold } from '../mapping/transcript-fold.js';
import { usage, type Usage } from '../mapping/usage.js';
import type { SessionPeek, SourceUnit } from '../run/harness-importer.js';
import type { SourceLine } from '../source/line-reader.js';
import { count, isRecord, parseLine, str, timeOf, type JsonRecord } from '../source/json-record.js';
import type { PiFacts } from './peek.js';

/**
 * Entry types that hold nothing for the event log: the thinking level the person chose, an
 * extension's own state (`custom`, "does not participate in LLM context"), a bookmark on an entry.
 */
const IGNORED = new Set(['thinking_level_change', 'custom', 'label']);

/** Maps one pi session file to one session. */
export async function mapPi(unit: SourceUnit, peek: SessionPeek): Promise<MappedFile> {
  return mapWholeFile(unit.file, false, foldPi(unit, peek));
}

/**
 * The mapping of `mapPi` as a fold: live ingest feeds it only appended lines.
 *
 * pi appends every entry to the file as it happens, each a node of a tree (`parentId`): the
 * conversation pi resumes is the path from the last entry to the root, and going back with
 * `/tree` starts a new branch below an earlier entry in the same file. The session here is the
 * file in its order — every branch, as pi wrote them — with a system note where an entry does
 * not continue from the one before (the branch point named). Only that keeps the prefix law: the
 * path to the newest leaf changes whenever a branch starts, and a session already shown (or
 * followed live) would have to be rewritten. It is how the Claude Code importer keeps a rewind's
 * abandoned branch.
 */
export function foldPi(unit: SourceUnit, peek: SessionPeek): TranscriptFold {
  const facts = peek.facts as PiFacts;
  const reports = new FileReports(unit.file);
  const builder = new TranscriptBuilder();
  const sink = new AttachmentSink();
  const seen = new Set<string>();
  let headerRead = false;
  /** The id of the last tree entry read: an entry whose parent is another one starts a branch. */
  let previous: string | null | undefined;
  /** The last prompt has no answer yet. */
  let unanswered = false;

  const feed = (line: SourceLine): Promise<void> => {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return Promise.resolve();
    if (parsed.kind === 'bad') {
      reports.skipRecord(line.line, parsed.reason);
      return Promise.resolve();
    }
    const record = parsed.record;
    const type = str(record.type);
    if (type === 'session') {
      // `_rewriteFile` writes one header; a second one is not pi's.
      if (headerRead) reports.skipRecord(line.line, 'a second session header');
      headerRead = true;
      return Promise.resolve();
    }
    // v1 entries have no ids (pi numbers them when it migrates the file): they run in file order.
    const id = str(record.id);
    if (id !== undefined) {
      if (seen.has(id)) {
        reports.skipRecord(line.line, `duplicate entry id ${id}`);
        return Promise.resolve();
      }
      seen.add(id);
    }
    const time = timeOf(record.timestamp) ?? builder.lastTime ?? facts.createdAt ?? 0;
    if (id !== undefined && 'parentId' in record) {
      const parent = record.parentId === null ? null : str(record.parentId);
      if (previous !== undefined && parent !== previous && builder.hasConversation)
        builder.note(
          parent === null || parent === undefined
            ? '[pi: a new branch from the start of the session]'
            : `[pi: a new branch from entry ${parent}]`,
          time,
        );
      previous = id;
    }
    entry(record, type, line.line, time);
    builder.flushAssistant();
    return Promise.resolve();
  };

  const entry = (record: JsonRecord, type: string | undefined, line: number, time: number): void => {
    switch (type) {
      case 'message':
        if (isRecord(record.message)) message(record.message, line, time);
        else reports.skipRecord(line, 'message entry without a message');
        return;
      case 'model_change': {
        const provider = str(record.provider);
        const model = str(record.modelId);
        if (provider !== undefined && model !== undefined) builder.announceRoute({ provider, model }, time);
        return;
      }
      case 'compaction': {
        const before = count(record.tokensBefore);
        const summary = str(record.summary) ?? '';
        builder.note(
          `[pi: context compacted${before > 0 ? ` from ${before} tokens` : ''}]\n\n${summary}`,
          time,
        );
        return;
      }
      case 'branch_summary': {
        const summary = str(record.summary);
        if (summary !== undefined && summary.length > 0)
          builder.note(`[pi: summary of the branch left]\n\n${summary}`, time);
        return;
      }
      case 'custom_message': {
        const content = blocksOf(record.content, sink);
        if (content.length > 0) builder.note(toContent(content), time);
        return;
      }
      case 'session_info': {
        const name = str(record.name);
        if (name !== undefined) builder.explicitTitle(name, time);
        return;
      }
      default:
        if (type !== undefined && IGNORED.has(type)) reports.ignore(type);
        else reports.unknown(line, `entry type "${String(type)}"`);
    }
  };

  const message = (m: JsonRecord, line: number, time: number): void => {
    switch (m.role) {
      case 'user': {
        const content = blocksOf(m.content, sink);
        if (content.length === 0) return;
        // pi writes a prompt before its answer, and the answer only once it is complete: a prompt
        // still unanswered when the next one comes is one whose process died mid-answer (`pi -p`
        // has no SIGINT handler; a queued message follows an answer, never a bare prompt).
        if (unanswered && builder.turnOpen) builder.endTurn('interrupted');
        builder.prompt(toContent(content), 'human', time, { titleText: textOf(content) });
        unanswered = true;
        return;
      }
      case 'assistant':
        unanswered = false;
        assistant(m, time);
        return;
      case 'toolResult':
        builder.toolResult(
          str(m.toolCallId) ?? '',
          toContent(blocksOf(m.content, sink)),
          m.isError === true,
          time,
        );
        return;
      case 'bashExecution': {
        // `!cmd` typed by the person: the command ran outside the model's turn; its output goes
        // into the model's context unless `!!` excluded it.
        const exit =
          typeof m.exitCode === 'number'
            ? ` (exit ${m.exitCode})`
            : m.cancelled === true
              ? ' (cancelled)'
              : '';
        builder.note(`$ ${str(m.command) ?? ''}${exit}\n${str(m.output) ?? ''}`, time);
        return;
      }
      case 'custom':
      case 'hookMessage': {
        // An extension's message (v2 called it `hookMessage`): context the person did not type.
        const content = blocksOf(m.content, sink);
        if (content.length > 0) builder.note(toContent(content), time);
        return;
      }
      case 'branchSummary':
      case 'compactionSummary': {
        const summary = str(m.summary);
        if (summary !== undefined && summary.length > 0) builder.note(summary, time);
        return;
      }
      default:
        reports.unknown(line, `message role "${String(m.role)}"`);
    }
  };

  const assistant = (m: JsonRecord, time: number): void => {
    const provider = str(m.provider);
    const model = str(m.model);
    if (provider !== undefined && model !== undefined) builder.assistantRoute({ provider, model }, time);
    const content = Array.isArray(m.content) ? m.content : [];
    for (const block of content) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') builder.assistantText(block.text, time);
      else if (block.type === 'toolCall')
        builder.assistantToolCall(
          str(block.id) ?? '',
          str(block.name) ?? 'unknown',
          JSON.stringify(block.arguments ?? {}),
          time,
        );
      // `thinking` blocks: the model's reasoning, not its reply (as the other importers drop it).
    }
    if (isRecord(m.usage)) builder.assistantUsage(piUsage(m.usage), 'replace');
    builder.flushAssistant();
    // pi's agent loop ends with the response that stops without calls, or the person's Escape;
    // pi writes no other end marker.
    switch (m.stopReason) {
      case 'stop':
      case 'length':
        builder.endTurn('completed', time);
        return;
      case 'error':
        // pi retries some errors (overloaded, rate limits) within the same prompt: the turn stays
        // open, and ends `error` only if the next prompt comes without a later response ending it.
        builder.turnError(str(m.errorMessage) ?? 'error');
        return;
      case 'aborted':
        builder.endTurn('aborted', time);
        return;
      default:
      // `toolUse`: the loop goes on with the results.
    }
  };

  return {
    feed,
    result(end) {
      builder.finish();
      if (!builder.hasConversation)
        return Promise.resolve({ kind: 'empty', reason: 'no conversation entries', reports, hash: end.hash });
      const plan: SessionPlan = {
        header: {
          id: peek.primaryId,
          createdAt: facts.createdAt ?? builder.events[0]?.time ?? 0,
          ...defined({ cwd: facts.cwd }),
          source: { harness: 'pi', sourceId: facts.sessionId },
        },
        events: builder.events,
        attachments: sink.items,
      };
      return Promise.resolve({ kind: 'sessions', plans: [plan], reports, hash: end.hash });
    },
  };
}

/** pi content: a string, or `text` and `image` (`data` base64, `mimeType`) blocks. */
function blocksOf(content: unknown, sink: AttachmentSink): ContentBlock[] {
  if (typeof content === 'string') return content.length === 0 ? [] : [{ type: 'text', text: content }];
  const out: ContentBlock[] = [];
  for (const block of Array.isArray(content) ? content : []) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') out.push({ type: 'text', text: block.text });
    else if (block.type === 'image' && typeof block.data === 'string')
      out.push(sink.image(block.data, str(block.mimeType) ?? 'application/octet-stream'));
  }
  return out;
}

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : '')).join(' ');
}

/**
 * pi's `usage` (pi-ai's one shape for every provider) is already in the log's meaning: `input`
 * is the uncached prompt (pi-ai takes the cached part out for OpenAI wires; Anthropic's
 * `input_tokens` leaves it out), `cacheRead` and `cacheWrite` apart, `output` with any
 * reasoning (pi-ai does not count reasoning apart).
 */
function piUsage(u: JsonRecord): Usage {
  return usage({
    input: count(u.input),
    output: count(u.output),
    cacheRead: count(u.cacheRead),
    cacheCreation: count(u.cacheWrite),
  });
}
