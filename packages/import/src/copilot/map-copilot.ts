import { defined } from '@strand/session';
import { promises as fsp } from 'node:fs';
import { descriptorEvent } from '@strand/subagent';
import type { SessionEventInput } from '@strand/session';
import { AttachmentSink, toContent, type ContentBlock } from '../mapping/attachments.js';
import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { shortTitle } from '../mapping/title.js';
import { TranscriptBuilder, type Author } from '../mapping/transcript-builder.js';
import { mapWholeFile, type TranscriptFold } from '../mapping/transcript-fold.js';
import { usage, type Usage } from '../mapping/usage.js';
import type { SessionPeek, SourceUnit } from '../run/harness-importer.js';
import type { LineReadEnd, SourceLine } from '../source/line-reader.js';
import { count, isRecord, parseLine, str, timeOf, type JsonRecord } from '../source/json-record.js';
import { WORKSPACE_FILE } from './discover.js';
import { copilotAgentId, copilotMainId, type CopilotFacts } from './peek.js';
import { EPHEMERAL_EVENTS, MODEL_TRACE_KINDS, QUIET_EVENTS } from './records.js';

// Before a usage record names it: the models Copilot CLI routes through GitHub Copilot.
const DEFAULT_PROVIDER = 'github-copilot';

/** One conversation in the log: the person's session, or a subagent run inline in it. */
interface Stream {
  readonly builder: TranscriptBuilder;
  readonly sink: AttachmentSink;
  /** The `task` call that started a subagent; undefined for the person's session. */
  readonly toolCallId?: string;
  readonly label?: string;
  firstTime: number | undefined;
  /**
   * The calls of the last assistant message since the last prompt: 0 means the round was the
   * loop's last; undefined, no answer yet (a round cut short by an interrupt ends without one).
   */
  lastCalls: number | undefined;
}

/**
 * Maps one Copilot CLI session log to the person's session and, for each subagent (`task` tool)
 * it ran, a child session. Both are in the one file: a subagent's records carry
 * `parentToolCallId`, its prompt follows its `subagent.started`.
 */
export function mapCopilot(unit: SourceUnit, peek: SessionPeek): Promise<MappedFile> {
  return mapWholeFile(unit.file, false, foldCopilot(unit, peek));
}

/**
 * The mapping of `mapCopilot` as a fold: live ingest feeds it only appended lines. Copilot CLI
 * appends one record per line and never rewrites one (a resumed session appends
 * `session.resume` and goes on), so each record maps to its own events.
 */
export function foldCopilot(unit: SourceUnit, peek: SessionPeek): TranscriptFold {
  const facts = peek.facts as CopilotFacts;
  const reports = new FileReports(unit.file);
  const newStream = (toolCallId?: string, label?: string): Stream => ({
    builder: new TranscriptBuilder(),
    sink: new AttachmentSink(),
    ...defined({ toolCallId, label }),
    firstTime: undefined,
    lastCalls: undefined,
  });
  const main = newStream();
  /** Subagents by the `task` call that started them, in start order. */
  const agents = new Map<string, Stream>();
  /** Started subagents whose prompt is not read yet, oldest first. */
  const awaitingPrompt: Stream[] = [];
  /** Images attached to prompts, written ahead of the prompt that names them (`assetId`). */
  const assets = new Map<string, { data: string; mimeType: string }>();
  /** Responses whose usage was read from a `session.usage_record` (an `assistant.usage` repeats it). */
  const counted = new Set<string>();
  let provider = DEFAULT_PROVIDER;
  let cwd: string | undefined;
  let firstTime: number | undefined;
  let lastTime: number | undefined;
  let workspace: WorkspaceFacts | undefined;

  const streamOf = (data: JsonRecord): Stream => {
    const parent = str(data.parentToolCallId);
    return (parent === undefined ? undefined : agents.get(parent)) ?? main;
  };

  const feed = async (line: SourceLine): Promise<void> => {
    workspace ??= await readWorkspace(unit);
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'bad') {
      reports.skipRecord(line.line, parsed.reason);
      return;
    }
    const record = parsed.record;
    // A record without a time of its own takes the last one seen (the next one's is not known yet).
    const time = timeOf(record.timestamp) ?? lastTime ?? 0;
    lastTime = time;
    firstTime ??= timeOf(record.timestamp);
    const type = str(record.type);
    const data = isRecord(record.data) ? record.data : {};
    switch (type) {
      case 'session.start': {
        const context = isRecord(data.context) ? data.context : {};
        cwd ??= str(context.cwd);
        // A name the person gave (`--name`, `/rename`) is the title the session list shows;
        // otherwise Copilot CLI names a session by its first prompt, as the builder does.
        if (workspace.userNamed && workspace.name !== undefined)
          main.builder.explicitTitle(workspace.name, time);
        reports.ignore(type);
        return;
      }
      case 'user.message':
        userMessage(data, time, line.line);
        return;
      case 'assistant.message':
        assistantMessage(data, time);
        return;
      case 'assistant.turn_end': {
        // Copilot CLI's turn is one model round; the person's turn ends with the round that
        // called no tool (the loop's answer). A subagent's rounds end with `subagent.completed`.
        const stream = streamOf(data);
        if (stream === main && stream.lastCalls === 0) main.builder.endTurn('auto', time);
        reports.ignore(type);
        return;
      }
      case 'tool.execution_complete':
        toolComplete(data, time);
        return;
      case 'session.usage_record': {
        const used = isRecord(data.usage) ? data.usage : {};
        responseUsage(used);
        return;
      }
      case 'assistant.usage':
        // An older log's per-response usage (1.0.102 streams it, `ephemeral`, and writes
        // `session.usage_record` instead).
        responseUsage(data);
        return;
      case 'session.binary_asset': {
        const id = str(data.assetId);
        if (id !== undefined && typeof data.data === 'string')
          assets.set(id, { data: data.data, mimeType: str(data.mimeType) ?? 'application/octet-stream' });
        else reports.skipRecord(line.line, 'binary asset without assetId or data');
        return;
      }
      case 'subagent.started': {
        const id = str(data.toolCallId);
        if (id === undefined) {
          reports.skipRecord(line.line, 'subagent.started without toolCallId');
          return;
        }
        const label =
          str(data.agentDescription)?.trim() || str(data.agentDisplayName)?.trim() || str(data.agentName);
        const stream = newStream(id, label);
        agents.set(id, stream);
        awaitingPrompt.push(stream);
        return;
      }
      case 'subagent.completed':
      case 'subagent.failed': {
        const stream = agents.get(str(data.toolCallId) ?? '');
        if (stream !== undefined) {
          const at = awaitingPrompt.indexOf(stream);
          if (at >= 0) awaitingPrompt.splice(at, 1);
          if (type === 'subagent.failed') stream.builder.turnError(str(data.error) ?? 'subagent failed');
          stream.builder.endTurn(data.cancelled === true ? 'interrupted' : 'auto', time);
        }
        reports.ignore(type);
        return;
      }
      case 'session.compaction_complete':
        compaction(data, time);
        return;
      case 'session.error':
        streamOf(data).builder.turnError(str(data.message) ?? str(data.errorType) ?? 'error');
        return;
      case 'abort':
        // Ctrl-C, or a remote stop: the turn in flight ends there.
        main.builder.endTurn('interrupted', time);
        for (const stream of agents.values()) stream.builder.endTurn('interrupted', time);
        return;
      case 'session.shutdown':
        // The process ended: a turn still open ended with it (an interrupted run's never got its
        // answer; the next run's prompt would close it the same way).
        main.builder.endTurn('auto', time);
        reports.ignore(type);
        return;
      case 'session.title_changed': {
        const title = str(data.title);
        if (title !== undefined) main.builder.explicitTitle(title, time);
        return;
      }
      case 'system.notification': {
        // Context Copilot CLI gives the model between prompts (a background task finished).
        const content = str(data.content);
        if (content !== undefined && content.trim().length > 0) streamOf(data).builder.note(content, time);
        return;
      }
      case 'skill.invoked': {
        // A skill's instructions loaded into the conversation; `/<skill>` typed is its marker.
        const name = str(data.name) ?? 'skill';
        const trigger = str(data.trigger);
        streamOf(data).builder.note(
          trigger === 'user-invoked' ? `/${name}` : `[Copilot CLI: skill ${name} loaded]`,
          time,
        );
        return;
      }
      case undefined:
        reports.skipRecord(line.line, 'record has no type');
        return;
      default:
        if (QUIET_EVENTS.has(type) || EPHEMERAL_EVENTS.has(type)) reports.ignore(type);
        else if (type.startsWith('model.') && MODEL_TRACE_KINDS.has(type.slice('model.'.length)))
          reports.ignore('model.*');
        else reports.unknown(line.line, `record type "${type}"`);
    }
  };

  function userMessage(data: JsonRecord, time: number, line: number): void {
    // A subagent's prompt is the first user message after its start; it names its writer
    // (`source: "agent-…"`) where the person's prompts name none.
    const source = str(data.source);
    const agent = source?.startsWith('agent-') === true ? awaitingPrompt.shift() : undefined;
    const stream = agent ?? main;
    const blocks: ContentBlock[] = [];
    const text = str(data.content);
    if (text !== undefined && text.length > 0) blocks.push({ type: 'text', text });
    if (Array.isArray(data.attachments))
      for (const attachment of data.attachments) {
        if (!isRecord(attachment)) continue;
        const block = attachmentBlock(attachment, stream.sink);
        if (block !== undefined) blocks.push(block);
      }
    if (blocks.length === 0) {
      reports.skipRecord(line, 'user message without content');
      return;
    }
    stream.firstTime ??= time;
    // An autopilot continuation is Copilot CLI's own prompt to keep going, not one anybody typed.
    if (data.isAutopilotContinuation === true) {
      stream.builder.note(toContent(blocks), time);
      return;
    }
    const author: Author = agent !== undefined ? 'agent' : 'human';
    stream.builder.prompt(toContent(blocks), author, time, {
      ...defined({ titleText: text }),
      // A message typed while the agent works joins its turn (`steering`); a queued one waits
      // for the turn's end and starts its own.
      startsTurn: data.delivery !== 'steering',
    });
    stream.lastCalls = undefined;
  }

  function attachmentBlock(attachment: JsonRecord, sink: AttachmentSink): ContentBlock | undefined {
    const asset = assets.get(str(attachment.assetId) ?? '');
    const mimeType = str(attachment.mimeType) ?? asset?.mimeType ?? '';
    if (asset !== undefined && mimeType.startsWith('image/')) return sink.image(asset.data, mimeType);
    if (attachment.type === 'blob' && typeof attachment.data === 'string' && mimeType.startsWith('image/'))
      return sink.image(attachment.data, mimeType);
    // A file, folder or selection the prompt names: the model got its content, the log its path.
    const named = str(attachment.displayName) ?? str(attachment.path) ?? str(attachment.uri);
    return named === undefined
      ? undefined
      : { type: 'text', text: `[${str(attachment.type) ?? 'attachment'}: ${named}]` };
  }

  function assistantMessage(data: JsonRecord, time: number): void {
    const stream = streamOf(data);
    const model = str(data.model);
    if (model !== undefined) stream.builder.assistantRoute({ provider, model }, time);
    const content = str(data.content);
    if (content !== undefined && content.length > 0) stream.builder.assistantText(content, time);
    let calls = 0;
    if (Array.isArray(data.toolRequests))
      for (const request of data.toolRequests) {
        if (!isRecord(request)) continue;
        const id = str(request.toolCallId);
        if (id === undefined) continue;
        const args = request.arguments;
        stream.builder.assistantToolCall(
          id,
          str(request.name) ?? 'unknown',
          typeof args === 'string' ? args : JSON.stringify(args ?? {}),
          time,
        );
        calls++;
      }
    stream.builder.flushAssistant();
    stream.firstTime ??= time;
    stream.lastCalls = calls;
  }

  function toolComplete(data: JsonRecord, time: number): void {
    const id = str(data.toolCallId);
    if (id === undefined) return;
    const stream = streamOf(data);
    const failed = data.success === false;
    stream.builder.toolResult(id, resultContent(data, failed, stream.sink), failed, time);
  }

  /**
   * A response's usage, logged just before the response (`apiCallId` links them): it rides on the
   * stream's next response. `parentToolCallId` names a subagent's.
   */
  function responseUsage(used: JsonRecord): void {
    const call = str(used.apiCallId);
    if (call !== undefined) {
      if (counted.has(call)) return;
      counted.add(call);
    }
    // Through GitHub Copilot's own routing the provider is GitHub Copilot; through a BYOK
    // provider it is the provider's type (`modelProvider` says `other` for an OpenAI-compatible one).
    provider =
      used.isByok === false
        ? DEFAULT_PROVIDER
        : (str(used.providerType) ?? str(used.modelProvider) ?? provider);
    streamOf(used).builder.assistantUsage(copilotUsage(used), 'add');
  }

  function compaction(data: JsonRecord, time: number): void {
    if (data.success === false) {
      reports.ignore('session.compaction_complete (failed)');
    } else {
      const before = count(data.preCompactionTokens);
      const after = count(data.postCompactionTokens);
      const summary = str(data.summaryContent)?.trim();
      const marker = `[Copilot CLI: history compacted${before > 0 ? `: ${before} → ${after} tokens` : ''}]`;
      main.builder.note(summary === undefined || summary === '' ? marker : `${marker}\n\n${summary}`, time);
    }
    // The summary's own model call: real spend, in no response of the conversation.
    if (isRecord(data.compactionTokensUsed))
      main.builder.usageRecord(copilotUsage(data.compactionTokensUsed), time);
  }

  const result = (end: LineReadEnd): Promise<MappedFile> => {
    main.builder.finish();
    for (const stream of agents.values()) stream.builder.finish();
    const plans: SessionPlan[] = [];
    const mainId = copilotMainId(facts.sessionId);
    const createdAt = firstTime ?? main.builder.events[0]?.time ?? 0;
    if (main.builder.hasConversation)
      plans.push({
        header: {
          id: mainId,
          createdAt,
          ...defined({ cwd }),
          source: { harness: 'copilot', sourceId: facts.sessionId },
        },
        events: main.builder.events,
        attachments: main.sink.items,
      });
    for (const stream of agents.values()) {
      if (!stream.builder.hasConversation || stream.toolCallId === undefined) continue;
      const label = stream.label === undefined ? undefined : shortTitle(stream.label);
      const descriptor: SessionEventInput = {
        ...descriptorEvent(
          label === undefined ? { version: 2, mode: 'one-shot' } : { version: 2, mode: 'one-shot', label },
        ),
        time: stream.builder.events[0]?.time ?? stream.firstTime ?? createdAt,
      };
      plans.push({
        header: {
          id: copilotAgentId(facts.sessionId, stream.toolCallId),
          createdAt: stream.firstTime ?? createdAt,
          ...defined({ cwd }),
          parentSession: mainId,
          origin: 'subagent',
          delegationDepth: 1,
          source: { harness: 'copilot', sourceId: stream.toolCallId },
        },
        events: [descriptor, ...stream.builder.events],
        attachments: stream.sink.items,
      });
    }
    if (plans.length === 0)
      return Promise.resolve({ kind: 'empty', reason: 'no conversation records', reports, hash: end.hash });
    return Promise.resolve({ kind: 'sessions', plans, reports, hash: end.hash });
  };
  return { feed, result };
}

/**
 * A tool's outcome: `result.content` (what the model was sent), with images a tool returned
 * (`result.binaryResultsForLlm`); a failure's `error.message`.
 */
function resultContent(
  data: JsonRecord,
  failed: boolean,
  sink: AttachmentSink,
): string | readonly ContentBlock[] {
  const result = isRecord(data.result) ? data.result : {};
  const error = isRecord(data.error) ? data.error : {};
  const blocks: ContentBlock[] = [];
  const text = str(result.content) ?? (failed ? str(error.message) : undefined);
  if (text !== undefined) blocks.push({ type: 'text', text });
  if (Array.isArray(result.binaryResultsForLlm))
    for (const binary of result.binaryResultsForLlm)
      if (isRecord(binary) && typeof binary.data === 'string' && str(binary.mimeType)?.startsWith('image/'))
        blocks.push(sink.image(binary.data, str(binary.mimeType)!));
  return toContent(blocks);
}

/**
 * Copilot CLI's usage (`session.usage_record`'s `usage`, `assistant.usage`, a compaction's
 * `compactionTokensUsed`) in the log's meaning. `inputTokens` counts the whole prompt, cache
 * reads and writes included (the bed's endpoint reports 120 fresh + 40 cached; Copilot CLI logs
 * 160), so the fresh input is what is left; `outputTokens` includes `reasoningTokens`.
 */
export function copilotUsage(used: JsonRecord): Usage {
  const cacheRead = count(used.cacheReadTokens);
  const cacheCreation = count(used.cacheWriteTokens);
  return usage({
    input: Math.max(0, count(used.inputTokens) - cacheRead - cacheCreation),
    output: count(used.outputTokens),
    cacheRead,
    cacheCreation,
    reasoning: count(used.reasoningTokens),
  });
}

interface WorkspaceFacts {
  readonly name?: string;
  /** The name was given by the person (`--name`, `/rename`), not taken from the first prompt. */
  readonly userNamed: boolean;
}

/**
 * `workspace.yaml` beside `events.jsonl`: flat `key: value` lines (`id`, `cwd`, `name`,
 * `user_named`, …). Only the two keys the title needs are read, so no YAML library is needed:
 * a value is plain, or quoted as YAML quotes a string with special characters. Absent or
 * unreadable: nothing known.
 */
async function readWorkspace(unit: SourceUnit): Promise<WorkspaceFacts> {
  const file = unit.companions.find((c) => c.endsWith(WORKSPACE_FILE));
  if (file === undefined) return { userNamed: false };
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch {
    return { userNamed: false };
  }
  let name: string | undefined;
  let userNamed = false;
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+):\s*(.*)$/.exec(line);
    if (match === null) continue;
    const value = yamlScalar(match[2]!);
    if (match[1] === 'name') name = value;
    else if (match[1] === 'user_named') userNamed = value === 'true';
  }
  return { ...(name === undefined || name === '' ? {} : { name }), userNamed };
}

function yamlScalar(raw: string): string {
  const value = raw.trim();
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return value.slice(1, -1);
    }
  }
  if (value.startsWith("'") && value.endsWith("'") && value.length >= 2)
    return value.slice(1, -1).replaceAll("''", "'");
  return value;
}
