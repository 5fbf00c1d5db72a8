import { descriptorEvent } from '@strand/subagent';
import type { SessionEventInput, SessionId } from '@strand/session';
import { AttachmentSink, toContent, type ContentBlock } from '../mapping/attachments.js';
import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { TranscriptBuilder, type Author } from '../mapping/transcript-builder.js';
import { usage, type Usage } from '../mapping/usage.js';
import { hashFile } from '../source/file-hash.js';
import { count, isRecord, str, type JsonRecord } from '../source/json-record.js';
import type { SessionPeek, SourceUnit } from '../run/harness-importer.js';
import { OPENCODE, storeSessionId, type StoreFlavour } from './flavour.js';
import { readStore, type MessageRow, type SessionRow, type StoreSnapshot } from './store.js';
import { depthOf, parentsFirst } from '../mapping/parents-first.js';

export const opencodeId = (sessionId: string): SessionId => storeSessionId(OPENCODE, sessionId);

// The title opencode gives a session until its title agent (or the person) names it.
const DEFAULT_TITLE = /^(?:New session|Child session) - \d{4}-\d{2}-\d{2}T/;
// Part types that carry nothing for the log: step bookkeeping (usage is on the message), file
// snapshots and patches (the tool calls show the edits), a retry's notice, the agent switch.
const QUIET_PARTS = new Set(['step-start', 'step-finish', 'snapshot', 'patch', 'retry', 'agent']);
// `finish` values after which opencode's loop asks the model again (the turn goes on).
const CONTINUES = new Set(['tool-calls', 'unknown']);

/**
 * Maps one opencode database to its sessions: every session with a conversation is a plan, a
 * child session (`parent_id`, written by the `task` tool) a subagent child with a descriptor.
 * The database is read read-only in one snapshot (`readStore`); see the README for why the whole
 * database is one unit.
 */
export function mapOpencode(unit: SourceUnit, peek: SessionPeek): Promise<MappedFile> {
  return mapStore(unit, peek, OPENCODE);
}

/** The mapping of any store of opencode's shape (opencode's own, or a fork's: `flavour`). */
export async function mapStore(
  unit: SourceUnit,
  _peek: SessionPeek,
  flavour: StoreFlavour,
): Promise<MappedFile> {
  const reports = new FileReports(unit.file);
  // The hash first: a write between the hash and the read only makes the next run look again.
  const hash = await hashFile(unit.file);
  const read = readStore(unit.file, undefined, flavour);
  if (read.kind === 'unreadable') return { kind: 'failed', reason: read.reason, reports };
  if (read.kind === 'foreign') return { kind: 'empty', reason: read.reason, reports, hash };
  const plans = mapSnapshot(read.snapshot, reports, flavour);
  if (plans.length === 0) return { kind: 'empty', reason: 'no session with a conversation', reports, hash };
  return { kind: 'sessions', plans, reports, hash };
}

/** Every session of a snapshot as a plan, parents before their children. */
export function mapSnapshot(
  snapshot: StoreSnapshot,
  reports: FileReports,
  flavour: StoreFlavour = OPENCODE,
): SessionPlan[] {
  const byId = new Map(snapshot.sessions.map((s) => [s.id, s]));
  const labels = taskLabels(snapshot);
  const plans: SessionPlan[] = [];
  for (const session of parentsFirst(snapshot.sessions)) {
    const plan = mapSession(session, snapshot.messages.get(session.id) ?? [], byId, labels, reports, flavour);
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
  flavour: StoreFlavour,
): SessionPlan | undefined {
  const builder = new TranscriptBuilder();
  const sink = new AttachmentSink();
  // A child session's prompts are its parent agent's (the `task` tool's prompt).
  const author: Author = session.parentId === null ? 'human' : 'agent';
  let titled = false;
  // A typed prompt with no reply yet: another typed prompt next means the run was stopped before
  // its reply was ever written (kilo drops the unfinished reply's row on Ctrl-C).
  let unanswered = false;
  for (let i = 0; i < messages.length; i++) {
    const row = messages[i]!;
    const data = parseData(row.data);
    if (data === undefined) {
      reports.skipRecord(null, `message ${row.id}: malformed JSON`);
      continue;
    }
    const later = i + 1 < messages.length;
    const role = str(data.role);
    if (role === 'user') {
      // The prompt's row is written before its parts: an empty last prompt may still be filling.
      if (row.parts.length === 0 && !later) break;
      unanswered = mapPrompt(row, data, author, builder, sink, reports, unanswered);
    } else if (role === 'assistant') {
      unanswered = false;
      const time = isRecord(data.time) ? data.time : {};
      // A reply is updated in place while it streams: mapped once opencode marks it complete, or
      // once a later message shows it is over (a run killed mid-stream never completes it). What
      // follows waits with it, so the log only ever grows.
      const completed = typeof time.completed === 'number';
      if (!completed && !later) break;
      mapReply(row, data, builder, sink, reports);
      // Never completed, and the session went on: the run was stopped mid-reply (Ctrl-C).
      if (!completed) builder.endTurn('interrupted');
      if (!titled && !DEFAULT_TITLE.test(session.title)) {
        // The title agent names the session during its first reply.
        builder.explicitTitle(session.title, builder.lastTime);
        titled = true;
      }
    } else reports.unknown(null, `message role "${String(data.role)}"`);
  }
  builder.finish();
  if (!builder.hasConversation) return undefined;
  const header = {
    id: storeSessionId(flavour, session.id),
    createdAt: session.timeCreated,
    ...(session.directory === '' ? {} : { cwd: session.directory }),
    source: { harness: flavour.harness, sourceId: session.id },
  };
  if (session.parentId === null) return { header, events: builder.events, attachments: sink.items };
  const label = labels.get(session.id);
  const descriptor: SessionEventInput = {
    ...descriptorEvent(
      label === undefined ? { version: 2, mode: 'one-shot' } : { version: 2, mode: 'one-shot', label },
    ),
    time: builder.events[0]?.time ?? session.timeCreated,
  };
  return {
    header: {
      ...header,
      parentSession: storeSessionId(flavour, session.parentId),
      origin: 'subagent',
      delegationDepth: depthOf(session, byId),
    },
    events: [descriptor, ...builder.events],
    attachments: sink.items,
  };
}

/** Maps a user message; says whether a typed prompt is now waiting for its reply. */
function mapPrompt(
  row: MessageRow,
  data: JsonRecord,
  author: Author,
  builder: TranscriptBuilder,
  sink: AttachmentSink,
  reports: FileReports,
  unanswered: boolean,
): boolean {
  const time = timeIn(data) ?? row.timeCreated;
  const typed: ContentBlock[] = [];
  const injected: string[] = [];
  let compaction = false;
  let command: string | undefined;
  for (const part of row.parts) {
    const p = parseData(part.data);
    if (p === undefined) {
      reports.skipRecord(null, `part ${part.id}: malformed JSON`);
      continue;
    }
    switch (p.type) {
      case 'text': {
        const text = str(p.text) ?? '';
        if (p.ignored === true || text.length === 0) break;
        // Text opencode adds itself (a file's contents read for an attachment, a command's output).
        if (p.synthetic === true) injected.push(text);
        else typed.push({ type: 'text', text });
        command ??= commandTyped(p);
        break;
      }
      case 'file':
        typed.push(fileBlock(p, sink));
        break;
      case 'compaction':
        compaction = true;
        break;
      case 'subtask':
      case 'agent':
        reports.ignore(`part ${String(p.type)}`);
        break;
      default:
        reports.unknown(null, `part type "${String(p.type)}"`);
    }
  }
  if (compaction) {
    // The marker opencode writes to ask for a summary of the history: a compaction, not a prompt.
    builder.note('[conversation compacted]', time);
    return false;
  }
  if (typed.length > 0) {
    if (unanswered) builder.endTurn('interrupted');
    // The command as typed, where the harness kept it (kilo): a marker before its expansion.
    if (command !== undefined) builder.note(command, time);
    builder.prompt(toContent(typed), author, time, {
      titleText: typed.map((b) => (b.type === 'text' ? b.text : '')).join('\n'),
    });
  }
  for (const text of injected) builder.note(text, time);
  return typed.length > 0 || unanswered;
}

function mapReply(
  row: MessageRow,
  data: JsonRecord,
  builder: TranscriptBuilder,
  sink: AttachmentSink,
  reports: FileReports,
): void {
  const time = timeIn(data) ?? row.timeCreated;
  const provider = str(data.providerID);
  const model = str(data.modelID);
  if (provider !== undefined && model !== undefined) builder.assistantRoute({ provider, model }, time);
  const calls: JsonRecord[] = [];
  for (const part of row.parts) {
    const p = parseData(part.data);
    if (p === undefined) {
      reports.skipRecord(null, `part ${part.id}: malformed JSON`);
      continue;
    }
    const type = str(p.type) ?? '';
    if (type === 'text') {
      const text = str(p.text) ?? '';
      if (p.synthetic === true || p.ignored === true) continue;
      builder.assistantText(text, time);
    } else if (type === 'tool') {
      const state = isRecord(p.state) ? p.state : {};
      calls.push(p);
      builder.assistantToolCall(
        str(p.callID) ?? part.id,
        str(p.tool) ?? 'unknown',
        JSON.stringify(state.input ?? {}),
        time,
      );
    } else if (type === 'file') builder.assistantBlock(fileBlock(p, sink), time);
    else if (type === 'reasoning') reports.ignore('part reasoning');
    else if (QUIET_PARTS.has(type)) continue;
    else reports.unknown(null, `part type "${type}"`);
  }
  if (isRecord(data.tokens)) builder.assistantUsage(opencodeUsage(data.tokens), 'replace');
  // A compaction's summary (`summary: true`) is a reply too: the model wrote it, opencode shows
  // it, and the history sent after it carries it as the assistant's.
  builder.flushAssistant();
  for (const call of calls) {
    const state = isRecord(call.state) ? call.state : {};
    const end = isRecord(state.time) ? count(state.time.end) || undefined : undefined;
    const id = str(call.callID) ?? '';
    if (state.status === 'completed') builder.toolResult(id, str(state.output) ?? '', false, end ?? time);
    else if (state.status === 'error') builder.toolResult(id, str(state.error) ?? '', true, end ?? time);
    // `pending`/`running` in a finished reply: the run died with the tool; the turn's end says so.
  }
  const completed = isRecord(data.time) ? count(data.time.completed) || undefined : undefined;
  const error = isRecord(data.error) ? data.error : undefined;
  if (error !== undefined) {
    const message = isRecord(error.data) ? str(error.data.message) : undefined;
    if (error.name === 'MessageAbortedError') builder.endTurn('aborted', completed ?? time);
    else builder.endTurn('error', completed ?? time, message ?? str(error.name) ?? 'error');
    return;
  }
  const finish = str(data.finish);
  // The loop stops asking when the model finished without calling tools: the turn is over.
  if (data.summary !== true && finish !== undefined && !CONTINUES.has(finish))
    builder.endTurn('completed', completed ?? time);
}

/** The `task` tool calls' labels, by the child session each started (`state.metadata.sessionId`). */
function taskLabels(snapshot: StoreSnapshot): Map<string, string> {
  const labels = new Map<string, string>();
  for (const messages of snapshot.messages.values())
    for (const message of messages)
      for (const part of message.parts) {
        if (!part.data.includes('"task"')) continue;
        const p = parseData(part.data);
        if (p === undefined || p.type !== 'tool' || p.tool !== 'task' || !isRecord(p.state)) continue;
        const child = isRecord(p.state.metadata) ? str(p.state.metadata.sessionId) : undefined;
        const input = isRecord(p.state.input) ? p.state.input : {};
        const label = str(input.subagent_type) ?? str(input.description);
        if (child !== undefined && label !== undefined) labels.set(child, label);
      }
  return labels;
}

/**
 * The slash command a prompt's text was expanded from, as typed (`/greet Ada`): kilo marks the
 * template's text parts with `metadata.kilo.injected.title` (its `markCommand`); opencode keeps
 * only the expansion.
 */
function commandTyped(p: JsonRecord): string | undefined {
  const kilo = isRecord(p.metadata) && isRecord(p.metadata.kilo) ? p.metadata.kilo : undefined;
  const title = kilo !== undefined && isRecord(kilo.injected) ? str(kilo.injected.title) : undefined;
  return title?.startsWith('/') === true ? title : undefined;
}

/** A file part: an image (a `data:` URL) as an image block, any other file as its name. */
function fileBlock(p: JsonRecord, sink: AttachmentSink): ContentBlock {
  const mime = str(p.mime) ?? 'application/octet-stream';
  const url = str(p.url) ?? '';
  if (mime.startsWith('image/')) return sink.imageUrl(url);
  return { type: 'text', text: `[file: ${str(p.filename) ?? url}]` };
}

function timeIn(data: JsonRecord): number | undefined {
  return isRecord(data.time) && typeof data.time.created === 'number' ? data.time.created : undefined;
}

function parseData(text: string): JsonRecord | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * opencode's `tokens` in the log's meaning: `input` is already the fresh input (opencode takes
 * the cache reads and writes out of the provider's input count), `output` excludes `reasoning`
 * (taken out the same way), so output + reasoning is what the model produced.
 */
export function opencodeUsage(tokens: JsonRecord): Usage {
  const cache = isRecord(tokens.cache) ? tokens.cache : {};
  const reasoning = count(tokens.reasoning);
  return usage({
    input: count(tokens.input),
    output: count(tokens.output) + reasoning,
    reasoning,
    cacheRead: count(cache.read),
    cacheCreation: count(cache.write),
  });
}
