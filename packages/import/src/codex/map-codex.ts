import { defined } from '@strand/session';
import { descriptorEvent } from '@strand/subagent';
import type { SessionEventInput } from '@strand/session';
import { AttachmentSink, toContent } from '../mapping/attachments.js';
import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { shortTitle } from '../mapping/title.js';
import { TranscriptBuilder, type Usage } from '../mapping/transcript-builder.js';
import { ExportContinuation } from '../mapping/strand-export.js';
import type { SessionPeek, SourceUnit } from '../run/harness-importer.js';
import type { LineReadEnd, SourceLine } from '../source/line-reader.js';
import { mapWholeFile, type TranscriptFold } from '../mapping/transcript-fold.js';
import { isRecord, parseLine, str, timeOf, type JsonRecord } from '../source/json-record.js';
import {
  QUIET_EVENTS,
  QUIET_ITEMS,
  QUIET_RECORDS,
  callIdOf,
  messageBlocks,
  outputOf,
  usageDelta,
} from './codex-records.js';
import { SPAWNED_AGENT_MARKER, isContextMessage, typedRequest } from './codex-text.js';
import { spawnCut } from './fork-cut.js';
import { readParentCalls, type ParentCalls } from './parent-calls.js';
import { codexId, type CodexFacts } from './peek.js';

// A fork's replayed parent history is stamped at the fork instant; a record this much later can
// only be the child's own, even if the spawn marker that normally ends the replay is missing.
const REPLAY_WINDOW_MS = 2_000;

/**
 * Maps one Codex rollout, each record to its own events. Turn boundaries come from
 * `task_started`/`task_complete`/`turn_aborted` when the rollout records them (0.100+), else from
 * prompts; a turn the rollout leaves open stays open. A forked child's
 * second `session_meta` and the parent history replayed after it are not the child's events.
 */
export async function mapCodex(unit: SourceUnit, peek: SessionPeek): Promise<MappedFile> {
  const facts = peek.facts as CodexFacts;
  return mapWholeFile(unit.file, facts.compressed, await foldCodex(unit, peek));
}

/**
 * The mapping of `mapCodex` as a fold: live ingest feeds it only appended lines. Undefined for a
 * compressed rollout (`.jsonl.zst`), whose bytes cannot be read from an offset.
 */
export async function incrementalCodex(
  unit: SourceUnit,
  peek: SessionPeek,
): Promise<TranscriptFold | undefined> {
  return (peek.facts as CodexFacts).compressed ? undefined : foldCodex(unit, peek);
}

async function foldCodex(unit: SourceUnit, peek: SessionPeek): Promise<TranscriptFold> {
  const facts = peek.facts as CodexFacts;
  const reports = new FileReports(unit.file);
  const builder = new TranscriptBuilder();
  // A Strand export Codex resumed: its first own record follows the exported prefix.
  const exported = new ExportContinuation('codex');
  const sink = new AttachmentSink();
  const fallbackTime = facts.createdAt ?? facts.firstLineTime ?? 0;
  let model: string | undefined;
  let effort: string | undefined;
  let lifecycle = false;
  let prompts = 0;
  /** A prompt was read in the turn `task_started` opened. */
  let turnPrompted = false;
  let totals: Usage | undefined;
  let replay: 'none' | 'in' | 'done' = 'none';
  let lastLine = 0;
  let first = true;
  const parentCalls =
    facts.spawn === undefined ? undefined : await readParentCalls(unit.parentFile, facts.id);

  const route = (time: number): void => {
    if (model !== undefined)
      builder.assistantRoute(
        { provider: facts.provider, model, ...defined({ reasoningEffort: effort }) },
        time,
      );
  };

  const item = (p: JsonRecord, time: number, line: number): void => {
    const type = str(p.type);
    switch (type) {
      case 'message': {
        const role = str(p.role);
        const blocks = messageBlocks(p.content, sink);
        const text = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
        if (role === 'user') {
          if (isContextMessage(text)) builder.note(toContent(blocks), time);
          else {
            // A spawned child's first prompt is its parent's spawn message, and what the parent
            // later sent it with `send_input` is the parent's too; the rest a person typed into it.
            const author =
              facts.spawn !== undefined && (prompts === 0 || parentCalls?.sent.has(text.trim()) === true)
                ? 'agent'
                : 'human';
            prompts++;
            turnPrompted = true;
            builder.prompt(toContent(blocks), author, time, {
              titleText: typedRequest(text),
              startsTurn: !lifecycle || !builder.turnOpen,
            });
          }
        } else if (role === 'assistant') {
          // An automatic compaction (0.16x) runs at the start of a turn, before its prompt is
          // recorded: the model's answer then is the summary that replaces the history (a
          // `compacted` record follows), not a reply to anyone.
          if (lifecycle && !turnPrompted && prompts > 0) {
            builder.note(toContent(blocks), time);
            return;
          }
          route(time);
          for (const block of blocks) builder.assistantBlock(block, time);
        }
        // developer / system messages: the harness's own instructions, not conversation.
        return;
      }
      case 'function_call':
        route(time);
        builder.assistantToolCall(
          callIdOf(p),
          str(p.name) ?? 'unknown',
          typeof p.arguments === 'string' ? p.arguments : JSON.stringify(p.arguments ?? {}),
          time,
        );
        return;
      case 'custom_tool_call':
        route(time);
        builder.assistantToolCall(
          callIdOf(p),
          str(p.name) ?? 'unknown',
          JSON.stringify({ input: p.input ?? '' }),
          time,
        );
        return;
      case 'local_shell_call':
        route(time);
        builder.assistantToolCall(callIdOf(p), 'local_shell', JSON.stringify(p.action ?? {}), time);
        return;
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'local_shell_call_output': {
        const { content, isError } = outputOf(p.output);
        builder.toolResult(callIdOf(p), content, isError, time);
        return;
      }
      default:
        if (type !== undefined && QUIET_ITEMS.has(type)) reports.ignore(`response_item:${type}`);
        else reports.unknown(line, `response_item type "${type ?? '(none)'}"`);
    }
  };

  const event = (p: JsonRecord, time: number, line: number): void => {
    const type = str(p.type);
    switch (type) {
      case 'token_count': {
        const usage = usageDelta(p.info, totals);
        if (usage !== undefined) {
          totals = usage.totals;
          builder.usageRecord(usage.delta, time);
        }
        return;
      }
      case 'task_started':
        lifecycle = true;
        turnPrompted = false;
        // A task still open here never recorded its end.
        if (builder.turnOpen) builder.endTurn('interrupted');
        builder.startTurn(time);
        return;
      case 'task_complete':
        builder.endTurn('auto', time);
        return;
      case 'turn_aborted':
        builder.endTurn('aborted', time);
        return;
      case 'error':
        builder.turnError(str(p.message) ?? 'error');
        return;
      default:
        if (type !== undefined && QUIET_EVENTS.has(type)) reports.ignore(`event_msg:${type}`);
        else reports.unknown(line, `event_msg type "${type ?? '(none)'}"`);
    }
  };

  const feed = (line: SourceLine): Promise<void> => {
    const continued = exported.before(line);
    if (continued !== undefined) builder.continuedFrom(continued);
    record(line);
    return Promise.resolve();
  };

  const record = (line: SourceLine): void => {
    lastLine = line.line;
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'bad') {
      reports.skipRecord(line.line, parsed.reason);
      return;
    }
    const record = parsed.record;
    // Each record maps to its own events (the prefix law of `TranscriptBuilder`): what the last
    // one buffered is written before this one is read.
    builder.flushAssistant();
    if (first) {
      first = false; // session_meta or the legacy header: read by the peek.
      return;
    }
    const time = timeOf(record.timestamp) ?? builder.lastTime ?? fallbackTime;
    const type = str(record.type);
    if (type === 'session_meta') {
      // A fork's line 2 is its parent's own session_meta; the parent's history follows.
      if (replay === 'none' && facts.forkedFrom !== undefined) replay = 'in';
      return;
    }
    if (replay === 'in') {
      const late = facts.firstLineTime !== undefined && time > facts.firstLineTime + REPLAY_WINDOW_MS;
      const payload = isRecord(record.payload) ? record.payload : undefined;
      const marker =
        payload?.type === 'function_call_output' &&
        typeof payload.output === 'string' &&
        payload.output.startsWith(SPAWNED_AGENT_MARKER);
      if (marker) replay = 'done';
      if (!late) return;
      replay = 'done';
    }
    const payload = isRecord(record.payload) ? record.payload : undefined;
    if (type === 'response_item' && payload !== undefined) item(payload, time, line.line);
    else if (type === 'event_msg' && payload !== undefined) event(payload, time, line.line);
    else if (type === 'turn_context' && payload !== undefined) {
      model = str(payload.model) ?? model;
      effort = str(payload.effort) ?? effort;
    } else if (type !== undefined && QUIET_RECORDS.has(type)) reports.ignore(type);
    else if (facts.legacy && record.record_type === 'state') return;
    else if (facts.legacy && type !== undefined && record.payload === undefined)
      item(record, time, line.line);
    else if (type === undefined) reports.skipRecord(line.line, 'record has no type');
    else reports.unknown(line.line, `record type "${type}"`);
  };

  const result = (end: LineReadEnd): MappedFile => {
    if (end.zstd === 'corrupt')
      return { kind: 'failed', reason: `zstd data is corrupt: ${end.zstdError ?? ''}`.trim(), reports };
    if (end.zstd === 'truncated')
      reports.skipRecord(
        lastLine + 1,
        'zstd stream ends inside a frame (a rollout still being written, or a cut copy); the partial line after the cut was skipped',
      );
    builder.finish();
    if (!builder.hasConversation)
      return {
        kind: 'empty',
        reason: 'no conversation records (a session opened and never used)',
        reports,
        hash: end.hash,
      };
    return {
      kind: 'sessions',
      plans: [plan(facts, builder, sink, fallbackTime, parentCalls)],
      reports,
      hash: end.hash,
      ...exported.facts(),
    };
  };
  return { feed, result: (end) => Promise.resolve(result(end)) };
}

function plan(
  facts: CodexFacts,
  builder: TranscriptBuilder,
  sink: AttachmentSink,
  createdAt: number,
  parentCalls: ParentCalls | undefined,
): SessionPlan {
  const id = codexId(facts.id);
  const base = {
    id,
    createdAt,
    ...defined({ cwd: facts.cwd }),
    source: { harness: 'codex', sourceId: facts.id } as const,
  };
  const fork =
    facts.forkedFrom === undefined
      ? {}
      : { fork: { parentId: codexId(facts.forkedFrom), cutIn: spawnCut(facts.id) } };
  if (facts.spawn === undefined)
    return { header: base, events: builder.events, attachments: sink.items, ...fork };
  const nickname = facts.spawn.nickname ?? parentCalls?.nickname;
  const role = facts.spawn.role ?? parentCalls?.agentType;
  const label = shortTitle(
    nickname !== undefined && role !== undefined ? `${nickname} (${role})` : (nickname ?? role ?? ''),
  );
  const descriptor: SessionEventInput = {
    ...descriptorEvent(
      label === undefined ? { version: 2, mode: 'one-shot' } : { version: 2, mode: 'one-shot', label },
    ),
    time: builder.events[0]?.time ?? createdAt,
  };
  return {
    header: {
      ...base,
      ...(facts.spawn.parent === undefined ? {} : { parentSession: codexId(facts.spawn.parent) }),
      origin: 'subagent',
      delegationDepth: facts.spawn.depth,
    },
    events: [descriptor, ...builder.events],
    attachments: sink.items,
    ...fork,
  };
}
