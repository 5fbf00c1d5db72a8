import { createHash } from 'node:crypto';
import { descriptorEvent } from '@strand/subagent';
import { SessionId, type SessionEventInput } from '@strand/session';
import { AttachmentSink, toContent, type ContentBlock } from '../mapping/attachments.js';
import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { TranscriptBuilder, type Author } from '../mapping/transcript-builder.js';
import { hashFile } from '../source/file-hash.js';
import { isRecord, str, type JsonRecord } from '../source/json-record.js';
import type { SessionPeek, SourceUnit } from '../run/harness-importer.js';
import { readStore, type MessageRow, type SessionRow, type StoreSnapshot } from './store.js';
import { depthOf, parentsFirst } from '../mapping/parents-first.js';

/**
 * The Strand id of a crush session. A subagent's session id is `<message id>$$<tool call id>`
 * (crush's `CreateAgentToolSessionID`), which a long tool call id could take past the 128
 * characters a session id may have: such an id is shortened to a digest.
 */
export const crushId = (sessionId: string): SessionId => {
  const id = `crush-${sessionId}`;
  return SessionId(id.length <= 128 ? id : `crush-${createHash('sha1').update(sessionId).digest('hex')}`);
};

// The titles crush gives a session until its title model names it (`DefaultSessionName`, the old
// `New Session`), and those of the sessions its `agent` and `agentic_fetch` tools start.
const DEFAULT_TITLES = new Set(['Untitled Session', 'New Session', 'New Agent Session', 'Fetch Analysis']);

// What `Run` prefixes a prompt with when it queues it again after summarizing a history that
// grew too long (`agent.go`, after `StopWhen` asked for a summary).
const REQUEUED =
  'The previous session was interrupted because it got too long, the initial user request was:';

/** A message's parsed parts: `{type, data}` pairs (crush's `marshalParts`). */
interface Part {
  readonly type: string;
  readonly data: JsonRecord;
}

/**
 * Maps one crush (or opencode-go) database to its sessions: every session with a conversation is
 * a plan, a child session (`parent_session_id`, written by the `agent` and `agentic_fetch` tools)
 * a subagent child with a descriptor. The database is read read-only in one snapshot; see the
 * README for why the whole database is one unit.
 */
export async function mapCrush(unit: SourceUnit, _peek: SessionPeek): Promise<MappedFile> {
  const reports = new FileReports(unit.file);
  // The hash first: a write between the hash and the read only makes the next run look again.
  const hash = await hashFile(unit.file);
  const read = readStore(unit.file);
  if (read.kind === 'unreadable') return { kind: 'failed', reason: read.reason, reports };
  if (read.kind === 'foreign') return { kind: 'empty', reason: read.reason, reports, hash };
  const plans = mapSnapshot(read.snapshot, reports);
  if (plans.length === 0) return { kind: 'empty', reason: 'no session with a conversation', reports, hash };
  return { kind: 'sessions', plans, reports, hash };
}

/** Every session of a snapshot as a plan, parents before their children. */
export function mapSnapshot(snapshot: StoreSnapshot, reports: FileReports): SessionPlan[] {
  const byId = new Map(snapshot.sessions.map((s) => [s.id, s]));
  const labels = agentLabels(snapshot);
  const plans: SessionPlan[] = [];
  for (const session of parentsFirst(snapshot.sessions)) {
    // `title-<parent>`: the session crush opens to ask the small model for a title, not a conversation.
    if (session.id.startsWith('title-') && session.parentId !== null) {
      reports.ignore('title session');
      continue;
    }
    const plan = mapSession(session, snapshot.messages.get(session.id) ?? [], byId, labels, reports);
    if (plan !== undefined) plans.push(plan);
  }
  return plans;
}

function mapSession(
  session: SessionRow,
  messages: readonly MessageRow[],
  byId: ReadonlyMap<string, SessionRow>,
  labels: ReadonlyMap<string, string>,
  reports: FileReports,
): SessionPlan | undefined {
  const builder = new TranscriptBuilder();
  const sink = new AttachmentSink();
  // A child session's prompt is its parent agent's (the `agent` tool's prompt).
  const author: Author = session.parentId === null ? 'human' : 'agent';
  let titled = false;
  for (let i = 0; i < messages.length; i++) {
    const row = messages[i]!;
    const parts = parseParts(row.parts);
    if (parts === undefined) {
      reports.skipRecord(null, `message ${row.id}: malformed parts JSON`);
      continue;
    }
    const time = row.createdAt;
    if (row.role === 'user') mapPrompt(parts, author, time, builder, sink, reports);
    else if (row.role === 'tool') mapToolResults(parts, time, builder, sink, reports);
    else if (row.role === 'assistant') {
      // A reply is updated in place while it streams (crush's debounced `Update`): mapped once it
      // has its `finish` part, or once a later prompt or reply shows it is over (a run killed
      // mid-stream never finishes it). Tool results are written before the reply gets its finish,
      // so they do not count; what follows waits with it, so the log only ever grows.
      const finish = parts.find((p) => p.type === 'finish');
      if (
        finish === undefined &&
        !messages.slice(i + 1).some((m) => m.role === 'user' || m.role === 'assistant')
      )
        break;
      mapReply(row, parts, finish, builder, reports);
      // Never finished, and the session went on: the run was stopped mid-reply.
      if (finish === undefined) builder.endTurn('interrupted');
      if (!titled && session.parentId === null && !DEFAULT_TITLES.has(session.title)) {
        // The title model names the session while the first reply streams.
        builder.explicitTitle(session.title, builder.lastTime);
        titled = true;
      }
    } else reports.unknown(null, `message role "${row.role}"`);
  }
  builder.finish();
  if (!builder.hasConversation) return undefined;
  const header = {
    id: crushId(session.id),
    createdAt: session.createdAt,
    source: { harness: 'crush', sourceId: session.id } as const,
  };
  if (session.parentId === null) return { header, events: builder.events, attachments: sink.items };
  const label = labels.get(session.id);
  const descriptor: SessionEventInput = {
    ...descriptorEvent(
      label === undefined ? { version: 2, mode: 'one-shot' } : { version: 2, mode: 'one-shot', label },
    ),
    time: builder.events[0]?.time ?? session.createdAt,
  };
  return {
    header: {
      ...header,
      parentSession: crushId(session.parentId),
      origin: 'subagent',
      delegationDepth: depthOf(session, byId),
    },
    events: [descriptor, ...builder.events],
    attachments: sink.items,
  };
}

function mapPrompt(
  parts: readonly Part[],
  author: Author,
  time: number,
  builder: TranscriptBuilder,
  sink: AttachmentSink,
  reports: FileReports,
): void {
  const typed: ContentBlock[] = [];
  for (const { type, data } of parts) {
    switch (type) {
      case 'text': {
        const text = str(data.text) ?? '';
        if (text.length > 0) typed.push({ type: 'text', text });
        break;
      }
      case 'binary':
        typed.push(binaryBlock(data, sink));
        break;
      case 'image_url':
        typed.push(sink.imageUrl(str(data.url) ?? ''));
        break;
      case 'shell_command':
        // A bang-mode command the person ran: crush sends it to the model inside the prompt.
        typed.push({
          type: 'text',
          text: `$ ${str(data.command) ?? ''}\n${str(data.output) ?? ''}\n(exit code ${typeof data.exit_code === 'number' ? data.exit_code : 0})`,
        });
        break;
      case 'finish':
        // crush gives every message it creates whole (prompts, tool results) a `finish` "stop".
        break;
      default:
        reports.unknown(null, `part type "${type}"`);
    }
  }
  const first = typed[0];
  if (typed.length === 1 && first?.type === 'text' && first.text.startsWith(REQUEUED)) {
    // The prompt crush queues again itself after an automatic summary: context it wrote, not a
    // new request (the person's words are quoted inside it).
    builder.note(first.text, time);
    return;
  }
  if (typed.length > 0)
    builder.prompt(toContent(typed), author, time, {
      titleText: typed.map((b) => (b.type === 'text' ? b.text : '')).join('\n'),
    });
}

function mapReply(
  row: MessageRow,
  parts: readonly Part[],
  finish: Part | undefined,
  builder: TranscriptBuilder,
  reports: FileReports,
): void {
  const time = row.createdAt;
  // A compaction: crush's `Summarize` writes the summary as a reply of its own, and the history
  // sent after it starts there (`summary_message_id`).
  if (row.isSummary) builder.note('[conversation compacted]', time);
  if (row.model !== null)
    builder.assistantRoute({ provider: row.provider ?? 'unknown', model: row.model }, time);
  for (const { type, data } of parts) {
    if (type === 'text') builder.assistantText(str(data.text) ?? '', time);
    else if (type === 'tool_call')
      builder.assistantToolCall(
        str(data.id) ?? '',
        str(data.name) ?? 'unknown',
        str(data.input) ?? '{}',
        time,
      );
    else if (type === 'reasoning') reports.ignore('part reasoning');
    else if (type !== 'finish') reports.unknown(null, `part type "${type}"`);
  }
  builder.flushAssistant();
  if (finish === undefined) return;
  const end = row.finishedAt ?? time;
  switch (str(finish.data.reason)) {
    case 'tool_use':
      // crush's loop runs the tools and asks again: the turn goes on.
      return;
    case 'end_turn':
    case 'max_tokens':
      if (!row.isSummary) builder.endTurn('completed', end);
      return;
    // crush before 2026-04 (the PreToolUse hooks) also stopped the run when the person denied a tool.
    case 'canceled':
    case 'permission_denied':
      builder.endTurn('aborted', end);
      return;
    case 'error': {
      const message = [str(finish.data.message), str(finish.data.details)].filter(
        (s) => s !== undefined && s !== '',
      );
      builder.endTurn('error', end, message.length > 0 ? message.join(': ') : 'error');
      return;
    }
    case 'content_filter':
      builder.endTurn('error', end, 'refused by the provider (content filter)');
      return;
    case 'unknown':
      // "Should never happen" (crush's words): nothing says whether the loop went on.
      return;
    default:
      reports.unknown(null, `finish reason "${String(finish.data.reason)}"`);
  }
}

/** A `tool` message: one `tool_result` part per call (crush writes one message per result). */
function mapToolResults(
  parts: readonly Part[],
  time: number,
  builder: TranscriptBuilder,
  sink: AttachmentSink,
  reports: FileReports,
): void {
  for (const { type, data } of parts) {
    if (type === 'tool_result') {
      const content = str(data.content) ?? '';
      const media = str(data.data);
      const mime = str(data.mime_type) ?? '';
      // An image a tool returned (the `view` tool on a picture) goes to the model as media.
      const body =
        media !== undefined && media !== '' && mime.startsWith('image/')
          ? toContent([
              ...(content === '' ? [] : [{ type: 'text' as const, text: content }]),
              sink.image(media, mime),
            ])
          : content;
      builder.toolResult(str(data.tool_call_id) ?? '', body, data.is_error === true, time);
    } else if (type !== 'finish') reports.unknown(null, `part type "${type}"`);
  }
}

/** An attachment: an image as an image block (Go writes its bytes in base64), another file as its name. */
function binaryBlock(data: JsonRecord, sink: AttachmentSink): ContentBlock {
  const mime = str(data.MIMEType) ?? 'application/octet-stream';
  const name = str(data.Path) ?? '';
  if (mime.startsWith('image/')) return sink.image(str(data.Data) ?? '', mime);
  return { type: 'text', text: `[file: ${name === '' ? mime : name}]` };
}

/**
 * The `agent`/`agentic_fetch` tool names, by the child session each started: the child's id is
 * `<message id>$$<tool call id>` (opencode-go's was the tool call id alone).
 */
function agentLabels(snapshot: StoreSnapshot): Map<string, string> {
  const wanted = new Map<string, string>();
  for (const s of snapshot.sessions)
    if (s.parentId !== null)
      wanted.set(s.id.includes('$$') ? s.id.slice(s.id.indexOf('$$') + 2) : s.id, s.id);
  const labels = new Map<string, string>();
  if (wanted.size === 0) return labels;
  for (const messages of snapshot.messages.values())
    for (const message of messages) {
      if (message.role !== 'assistant' || !message.parts.includes('tool_call')) continue;
      for (const { type, data } of parseParts(message.parts) ?? []) {
        const child = type === 'tool_call' ? wanted.get(str(data.id) ?? '') : undefined;
        const name = str(data.name);
        if (child !== undefined && name !== undefined) labels.set(child, name);
      }
    }
  return labels;
}

function parseParts(text: string): Part[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  const parts: Part[] = [];
  for (const item of value)
    if (isRecord(item) && typeof item.type === 'string')
      parts.push({ type: item.type, data: isRecord(item.data) ? item.data : {} });
  return parts;
}
