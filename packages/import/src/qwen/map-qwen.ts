import { defined } from '@strand/session';
import { promises as fsp } from 'node:fs';
import { descriptorEvent } from '@strand/subagent';
import type { SessionEventInput, SessionId } from '@strand/session';
import { AttachmentSink, toContent, type ContentBlock } from '../mapping/attachments.js';
import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { shortTitle } from '../mapping/title.js';
import { TranscriptBuilder, type Author, type Route } from '../mapping/transcript-builder.js';
import { mapWholeFile, type TranscriptFold } from '../mapping/transcript-fold.js';
import { usage, type Usage } from '../mapping/usage.js';
import type { SessionPeek, SourceUnit } from '../run/harness-importer.js';
import type { LineReadEnd, SourceLine } from '../source/line-reader.js';
import { count, isRecord, parseLine, str, timeOf, type JsonRecord } from '../source/json-record.js';
import { qwenMainId, type QwenFacts } from './peek.js';
import { NOTICE_USER, QUIET_SYSTEM } from './records.js';

// How Qwen Code frames the files a prompt names with `@` (as Gemini CLI does): its own text
// parts from the opening line to the closing one, around each file's content; not what the
// person typed. Images inside the frame are kept (the person attached them).
const FRAME_OPEN = /^\s*--- Content from referenced files ---\s*$/;
const FRAME_CLOSE = /^\s*--- End of content ---\s*$/;
// Tool call outcomes that mean the call did not do what was asked.
const FAILED = new Set(['error', 'cancelled']);
// `ui_telemetry` api_response records name the auth type the request went through.
const PROVIDER_OF_AUTH: Readonly<Record<string, string>> = {
  openai: 'openai',
  'openai-responses': 'openai',
  anthropic: 'anthropic',
  gemini: 'google',
  'vertex-ai': 'google',
  'qwen-oauth': 'qwen',
};
// Before any telemetry names it (a subagent's transcript has none): Qwen Code's default auth
// type speaks OpenAI Chat Completions.
const DEFAULT_PROVIDER = 'openai';

/**
 * Maps one Qwen Code transcript to one session: a chat (`chats/<sessionId>.jsonl`) to the
 * person's session, or a subagent's (`subagents/<sessionId>/agent-<id>.jsonl`) to a child of it.
 */
export function mapQwen(unit: SourceUnit, peek: SessionPeek): Promise<MappedFile> {
  return mapWholeFile(unit.file, false, foldQwen(unit, peek));
}

/**
 * The mapping of `mapQwen` as a fold: live ingest feeds it only appended lines. Records map in
 * file order, each to its own events (the prefix law). Qwen Code's records form a tree by
 * `parentUuid` (a rewind re-roots the chain, leaving later records on a dead branch); the file
 * is append-only, so what was shown stays: a rewind is reported and takes nothing back.
 */
export function foldQwen(unit: SourceUnit, peek: SessionPeek): TranscriptFold {
  const facts = peek.facts as QwenFacts;
  const reports = new FileReports(unit.file);
  const builder = new TranscriptBuilder();
  const sink = new AttachmentSink();
  const isAgent = facts.agentId !== undefined;
  // A subagent's prompts come from its parent agent, as do those of a session another one started.
  const promptAuthor: Author = isAgent || facts.parentSessionId !== undefined ? 'agent' : 'human';
  const seen = new Set<string>();
  let provider = DEFAULT_PROVIDER;
  let title: string | undefined;
  let cwd: string | undefined;
  let firstTime: number | undefined;
  let lastTime: number | undefined;

  // A subagent's records name no model; its meta file does (read once, before its first record).
  let meta: AgentMeta | undefined;

  const feed = async (line: SourceLine): Promise<void> => {
    if (isAgent) meta ??= await readAgentMeta(unit);
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'bad') {
      reports.skipRecord(line.line, parsed.reason);
      return;
    }
    const record = parsed.record;
    const uuid = str(record.uuid);
    if (uuid !== undefined) {
      if (seen.has(uuid)) {
        reports.skipRecord(line.line, `duplicate uuid ${uuid}`);
        return;
      }
      seen.add(uuid);
    }
    // A record without a time of its own takes the last one seen (the next one's is not known yet).
    const time = timeOf(record.timestamp) ?? lastTime ?? 0;
    lastTime = time;
    firstTime ??= timeOf(record.timestamp);
    cwd ??= str(record.cwd);
    const type = str(record.type);
    switch (type) {
      case 'user':
        user(record, time, line.line);
        break;
      case 'assistant':
        assistant(record, time);
        break;
      case 'tool_result':
        toolResults(record, time);
        break;
      case 'system':
        system(record, time, line.line);
        break;
      case undefined:
        reports.skipRecord(line.line, 'record has no type');
        break;
      default:
        reports.unknown(line.line, `record type "${type}"`);
    }
  };

  function user(record: JsonRecord, time: number, line: number): void {
    const subtype = str(record.subtype);
    const payload = isRecord(record.systemPayload) ? record.systemPayload : {};
    const blocks = promptBlocks(partsOf(record), sink);
    if (subtype !== undefined && NOTICE_USER.has(subtype)) {
      if (blocks.length > 0) builder.note(toContent(blocks), time);
      return;
    }
    if (subtype !== undefined && subtype !== 'mid_turn_user_message' && subtype !== 'realtime_message') {
      reports.unknown(line, `user subtype "${subtype}"`);
      return;
    }
    if (blocks.length === 0) return; // only functionResponse parts: results are on the tool calls
    // What the person typed (`displayText`), when the model was sent more (a hook's context).
    const shown = str(payload.displayText);
    builder.prompt(toContent(blocks), promptAuthor, time, {
      titleText: shown ?? textOf(blocks),
      // A message typed while tools ran is sent with their results: it joins the open turn.
      startsTurn: subtype !== 'mid_turn_user_message',
    });
  }

  function assistant(record: JsonRecord, time: number): void {
    const model = str(record.model) ?? meta?.model;
    const parts = partsOf(record);
    // A subagent round without text writes only its usage; it rides on the round's call, which
    // then carries the route.
    if (model !== undefined && parts.length > 0)
      builder.assistantRoute(routeOf(meta?.provider ?? provider, model), time);
    for (const part of parts) {
      if (!isRecord(part)) continue;
      if (typeof part.text === 'string') {
        // Thoughts are the model's reasoning, not its reply.
        if (part.thought !== true) builder.assistantText(part.text, time);
      } else if (isRecord(part.functionCall)) {
        const call = part.functionCall;
        builder.assistantToolCall(
          str(call.id) ?? '',
          str(call.name) ?? 'unknown',
          JSON.stringify(call.args ?? {}),
          time,
        );
      } else if (isRecord(part.inlineData) && typeof part.inlineData.data === 'string')
        builder.assistantBlock(
          sink.image(part.inlineData.data, str(part.inlineData.mimeType) ?? 'application/octet-stream'),
          time,
        );
    }
    if (isRecord(record.usageMetadata)) builder.assistantUsage(qwenUsage(record.usageMetadata), 'replace');
    builder.flushAssistant();
  }

  function toolResults(record: JsonRecord, time: number): void {
    const result = isRecord(record.toolCallResult) ? record.toolCallResult : {};
    const status = str(result.status);
    for (const part of partsOf(record)) {
      if (!isRecord(part) || !isRecord(part.functionResponse)) continue;
      const response = part.functionResponse;
      const id = str(response.id) ?? str(result.callId) ?? '';
      // A subagent's transcript records no status: an `error` in the response marks the failure.
      const failed =
        (status !== undefined && FAILED.has(status)) ||
        (isRecord(response.response) && response.response.error !== undefined);
      builder.toolResult(id, resultContent(response, result, sink), failed, time);
    }
  }

  function system(record: JsonRecord, time: number, line: number): void {
    const subtype = str(record.subtype) ?? '(none)';
    const payload = isRecord(record.systemPayload) ? record.systemPayload : {};
    switch (subtype) {
      case 'custom_title': {
        // Re-anchored every 32 KB so Qwen Code's picker finds it near the end: one title per change.
        const text = str(payload.customTitle);
        if (text === undefined || shortTitle(text) === title) return;
        title = shortTitle(text);
        builder.explicitTitle(text, time);
        return;
      }
      case 'chat_compression': {
        const info = isRecord(payload.info) ? payload.info : {};
        const before = count(info.originalTokenCount);
        const after = count(info.newTokenCount);
        // The marker, then the summary the model is given in the history's place, and the reply
        // Qwen Code puts in the model's mouth after it ("Got it. Thanks for the additional
        // context!"), which the model is then sent as its own.
        const marker = `[history compressed${before > 0 ? `: ${before} → ${after} tokens` : ''}]`;
        const { summary, acknowledgement } = compressedOpening(payload.compressedHistory);
        builder.note(summary === undefined ? marker : `${marker}\n\n${summary}`, time);
        if (acknowledgement !== undefined) {
          builder.assistantText(acknowledgement, time);
          builder.flushAssistant();
        }
        return;
      }
      case 'slash_command':
        // The command as typed is the marker; its `result` phase is UI output, never sent to the model.
        if (payload.phase === 'invocation' && typeof payload.rawCommand === 'string')
          builder.note(payload.rawCommand, time);
        else reports.ignore('system:slash_command');
        return;
      case 'rewind':
        reports.note(
          line,
          'rewind: the records it takes back are kept (an append-only log shows what was shown)',
        );
        return;
      default:
        if (QUIET_SYSTEM.has(subtype)) {
          if (subtype === 'ui_telemetry') provider = providerIn(payload) ?? provider;
          reports.ignore(`system:${subtype}`);
        } else reports.unknown(line, `system subtype "${subtype}"`);
    }
  }

  const result = async (end: LineReadEnd): Promise<MappedFile> => {
    builder.finish();
    if (!builder.hasConversation)
      return { kind: 'empty', reason: 'no conversation records', reports, hash: end.hash };
    const createdAt = firstTime ?? builder.events[0]?.time ?? 0;
    const header = {
      id: peek.primaryId,
      createdAt,
      ...defined({ cwd }),
      source: { harness: 'qwen', sourceId: facts.agentId ?? facts.sessionId } as const,
    };
    const parent: SessionId | undefined = isAgent
      ? qwenMainId(facts.sessionId)
      : facts.parentSessionId === undefined
        ? undefined
        : qwenMainId(facts.parentSessionId);
    let plan: SessionPlan = { header, events: builder.events, attachments: sink.items };
    if (parent !== undefined) {
      const label = isAgent ? (meta ?? (await readAgentMeta(unit))).label : undefined;
      const descriptor: SessionEventInput = {
        ...descriptorEvent(
          label === undefined ? { version: 2, mode: 'one-shot' } : { version: 2, mode: 'one-shot', label },
        ),
        time: builder.events[0]?.time ?? createdAt,
      };
      plan = {
        header: { ...header, parentSession: parent, origin: 'subagent', delegationDepth: 1 },
        events: [descriptor, ...builder.events],
        attachments: sink.items,
      };
    }
    return { kind: 'sessions', plans: [plan], reports, hash: end.hash };
  };
  return { feed, result };
}

/**
 * What a compression makes up: the first user message of the compressed history (the
 * `<state_snapshot>` summary) and the model message right after it (the acknowledgement). What
 * follows them restores files and images the conversation already held.
 */
function compressedOpening(history: unknown): { summary?: string; acknowledgement?: string } {
  if (!Array.isArray(history)) return {};
  const contents = history as unknown[];
  const at = contents.findIndex((c) => isRecord(c) && c.role === 'user');
  if (at < 0) return {};
  const summary = textOfContent(contents[at]);
  const next = contents[at + 1];
  const acknowledgement = isRecord(next) && next.role === 'model' ? textOfContent(next) : undefined;
  return {
    ...defined({ summary, acknowledgement }),
  };
}

function textOfContent(content: unknown): string | undefined {
  if (!isRecord(content) || !Array.isArray(content.parts)) return undefined;
  const text = (content.parts as unknown[])
    .flatMap((p) => (isRecord(p) && typeof p.text === 'string' && p.thought !== true ? [p.text] : []))
    .join('\n')
    .trim();
  return text.length === 0 ? undefined : text;
}

function partsOf(record: JsonRecord): unknown[] {
  const message = isRecord(record.message) ? record.message : undefined;
  return Array.isArray(message?.parts) ? message.parts : [];
}

/**
 * A prompt's parts as content: text and images, without the `@`-file frame Qwen Code adds around
 * named files' contents (the typed text names them), and without tool traffic.
 */
function promptBlocks(parts: readonly unknown[], sink: AttachmentSink): ContentBlock[] {
  const out: ContentBlock[] = [];
  let framed = false;
  for (const part of parts) {
    if (!isRecord(part)) continue;
    if (typeof part.text === 'string') {
      if (FRAME_OPEN.test(part.text)) framed = true;
      else if (FRAME_CLOSE.test(part.text)) framed = false;
      else if (!framed && part.thought !== true) out.push({ type: 'text', text: part.text });
    } else if (isRecord(part.inlineData) && typeof part.inlineData.data === 'string')
      out.push(sink.image(part.inlineData.data, str(part.inlineData.mimeType) ?? 'application/octet-stream'));
    else if (isRecord(part.fileData))
      out.push({ type: 'text', text: `[file: ${str(part.fileData.fileUri) ?? 'unknown'}]` });
  }
  return out;
}

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

/**
 * A tool's output: `functionResponse.response.output` (or `.error`), with images a tool returned
 * (`functionResponse.parts`, e.g. `read_file` of a picture); else the result's display text.
 */
function resultContent(
  response: JsonRecord,
  result: JsonRecord,
  sink: AttachmentSink,
): string | readonly ContentBlock[] {
  const blocks: ContentBlock[] = [];
  const body = response.response;
  if (isRecord(body)) {
    const value = body.output ?? body.error;
    if (value !== undefined)
      blocks.push({ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) });
    else if (Object.keys(body).length > 0) blocks.push({ type: 'text', text: JSON.stringify(body) });
  }
  if (Array.isArray(response.parts))
    for (const part of response.parts)
      if (isRecord(part) && isRecord(part.inlineData) && typeof part.inlineData.data === 'string')
        blocks.push(
          sink.image(part.inlineData.data, str(part.inlineData.mimeType) ?? 'application/octet-stream'),
        );
  if (blocks.length === 0 && typeof result.resultDisplay === 'string') return result.resultDisplay;
  return toContent(blocks);
}

function routeOf(provider: string, model: string): Route {
  return { provider, model };
}

function providerIn(payload: JsonRecord): string | undefined {
  const event = isRecord(payload.uiEvent) ? payload.uiEvent : undefined;
  const auth = str(event?.auth_type);
  return auth === undefined ? undefined : PROVIDER_OF_AUTH[auth];
}

interface AgentMeta {
  /** The description, else the agent type. */
  readonly label?: string;
  /** The model the subagent ran with (its own, else the CLI's). */
  readonly model?: string;
  /** The provider of the CLI's auth type. */
  readonly provider?: string;
}

/**
 * `agent-<id>.meta.json`: `{agentType, description, model?, persistedCliFlags: {model, authType}, …}`;
 * absent or unreadable: nothing known.
 */
async function readAgentMeta(unit: SourceUnit): Promise<AgentMeta> {
  const file = unit.companions.find((c) => c.endsWith('.meta.json'));
  if (file === undefined) return {};
  try {
    const raw: unknown = JSON.parse(await fsp.readFile(file, 'utf8'));
    if (!isRecord(raw)) return {};
    const label = shortTitle(str(raw.description)?.trim() || str(raw.agentType)?.trim() || '');
    const flags = isRecord(raw.persistedCliFlags) ? raw.persistedCliFlags : {};
    const model = str(raw.model) ?? str(flags.model);
    const auth = str(flags.authType);
    const provider = auth === undefined ? undefined : PROVIDER_OF_AUTH[auth];
    return {
      ...defined({ label, model, provider }),
    };
  } catch {
    // An unreadable meta file only costs the label and the model.
    return {};
  }
}

/**
 * `usageMetadata` in the log's meaning. `promptTokenCount` includes `cachedContentTokenCount`
 * (cache reads). Whether `candidatesTokenCount` includes `thoughtsTokenCount` depends on the
 * wire Qwen Code converted from: OpenAI's `completion_tokens` include the reasoning (total =
 * prompt + candidates), Gemini counts thoughts apart (total = prompt + candidates + thoughts).
 * The total tells which.
 */
export function qwenUsage(meta: JsonRecord): Usage {
  const prompt = count(meta.promptTokenCount);
  const cached = Math.min(count(meta.cachedContentTokenCount), prompt);
  const candidates = count(meta.candidatesTokenCount);
  const thoughts = count(meta.thoughtsTokenCount);
  const apart = thoughts > 0 && count(meta.totalTokenCount) >= prompt + candidates + thoughts;
  return usage({
    input: prompt - cached,
    cacheRead: cached,
    output: apart ? candidates + thoughts : Math.max(candidates, thoughts),
    reasoning: thoughts,
  });
}
