import { defined } from '@strand/session';
import { descriptorEvent } from '@strand/subagent';
import type { SessionEventInput, SessionId } from '@strand/session';
import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { shortTitle } from '../mapping/title.js';
import type { SessionPeek, SourceUnit } from '../run/harness-importer.js';
import type { LineReadEnd, SourceLine } from '../source/line-reader.js';
import { mapWholeFile, type TranscriptFold } from '../mapping/transcript-fold.js';
import { ExportContinuation } from '../mapping/strand-export.js';
import { isRecord, parseLine, str, type JsonRecord } from '../source/json-record.js';
import { findRoleInParent, labelOf, readAgentMeta, type AgentRole } from './agent-label.js';
import { ClaudeStream } from './claude-stream.js';
import { SIDE_RECORDS } from './records.js';
import { claudeAgentId, claudeMainId, claudeSidechainId } from './ids.js';
import type { ClaudeFacts } from './peek.js';
import { WarmupWitness } from './warmup.js';

/**
 * Maps one Claude Code JSONL file. A main file yields its session plus one child per inline
 * sidechain (1.0.x, `isSidechain: true`, grouped by parent chain from each `parentUuid: null`
 * root, because sidechain blocks are written in completion order, not time order). A subagent
 * file (2.0+, `agentId` on every line) yields one child of the session its `sessionId` names.
 */
export async function mapClaude(unit: SourceUnit, peek: SessionPeek): Promise<MappedFile> {
  return mapWholeFile(unit.file, false, foldClaude(unit, peek));
}

/** The mapping of `mapClaude` as a fold: live ingest feeds it only appended lines. */
export function foldClaude(unit: SourceUnit, peek: SessionPeek): TranscriptFold {
  const facts = peek.facts as ClaudeFacts;
  const reports = new FileReports(unit.file);
  const agentId = facts.agentId;
  const isAgentFile = agentId !== undefined;
  const main = new ClaudeStream(isAgentFile ? 'agent' : 'human');
  const sidechains: Sidechain[] = [];
  const sidechainOf = new Map<string, ClaudeStream>();
  /** Task/Agent calls of the main conversation, by prompt, to label inline sidechains. */
  const taskRoles = new Map<string, AgentRole[]>();
  const seen = new Set<string>();
  const warmup = new WarmupWitness();
  // A custom title (the person's rename) outranks every AI title, wherever it stands in the file.
  let customTitled = false;
  // The parent is scanned at most once, and only when needed: for a missing prompt, or a label
  // no `.meta.json` gives.
  let inParent: Promise<AgentRole | undefined> | undefined;
  const parentRole = (): Promise<AgentRole | undefined> =>
    (inParent ??= findRoleInParent(unit.parentFile, agentId ?? ''));
  // A Strand export Claude Code resumed: its first own record follows the exported prefix.
  const exported = new ExportContinuation('claude-code');

  const feed = async (line: SourceLine): Promise<void> => {
    const continued = exported.before(line);
    if (continued !== undefined) main.builder.continuedFrom(continued);
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'bad') {
      reports.skipRecord(line.line, parsed.reason);
      return;
    }
    const record = parsed.record;
    const type = str(record.type);
    const uuid = str(record.uuid);
    if (uuid !== undefined) {
      if (seen.has(uuid)) {
        reports.skipRecord(line.line, `duplicate uuid ${uuid}`);
        return;
      }
      seen.add(uuid);
    }
    if (type === 'user' || type === 'assistant' || type === 'system') {
      if (isAgentFile) warmup.see(type, record);
      let stream = main;
      if (!isAgentFile && record.isSidechain === true) {
        const parent = str(record.parentUuid);
        stream =
          (parent === undefined ? undefined : sidechainOf.get(parent)) ??
          newSidechain(uuid ?? `line-${line.line}`);
        if (uuid !== undefined) sidechainOf.set(uuid, stream);
      }
      const time = stream.stamp(record);
      // A 2.0 child file may start with the reply: its prompt is in the parent's call.
      if (isAgentFile && stream === main && !main.builder.hasConversation && type === 'assistant') {
        const prompt = (await parentRole())?.prompt;
        if (prompt !== undefined) main.recoveredPrompt(prompt, time);
      }
      const side = stream === main ? undefined : sidechains.find((s) => s.stream === stream);
      const hadPrompt = stream.firstPrompt !== undefined;
      if (type === 'user') stream.user(record, time);
      else if (type === 'assistant') {
        if (stream === main && !isAgentFile) labelSidechains(collectTaskRoles(record, taskRoles), time);
        stream.assistant(record, time);
      } else stream.system(record, reports);
      // A sidechain takes the role of a Task call already read when its prompt shows; a call
      // read later labels it then (file order is not time order in 1.0), never retroactively.
      if (side !== undefined && !hadPrompt && side.stream.firstPrompt !== undefined)
        side.role = taskRoles.get(side.stream.firstPrompt)?.shift();
    } else if (type === 'summary') {
      main.title(str(record.summary) ?? '', undefined);
    } else if (type === 'custom-title') {
      customTitled = true;
      main.title(str(record.customTitle) ?? '', undefined);
    } else if (type === 'ai-title') {
      // Claude Code 2.1 names the session itself, again as it goes: the latest one stands.
      if (!customTitled) main.title(str(record.aiTitle) ?? '', undefined);
    } else if (type === 'attachment') {
      // Attachments belong to the conversation their parent chain is in (a sidechain's own).
      const parent = str(record.parentUuid);
      const stream = (parent === undefined ? undefined : sidechainOf.get(parent)) ?? main;
      if (uuid !== undefined && stream !== main) sidechainOf.set(uuid, stream);
      stream.attachment(record, stream.stamp(record), line.line, reports);
    } else if (type === 'cost-state') {
      if (!main.costState(record, main.stamp(record)))
        reports.skipRecord(line.line, 'cost-state without a readable totalCostUSD');
    } else if (type !== undefined && SIDE_RECORDS.has(type)) {
      main.stamp(record);
      reports.ignore(type);
    } else if (type === undefined) reports.skipRecord(line.line, 'record has no type');
    else reports.unknown(line.line, `record type "${type}"`);
  };

  const result = async (end: LineReadEnd): Promise<MappedFile> => {
    main.finish();
    for (const { stream } of sidechains) stream.finish();
    const plans: SessionPlan[] = [];
    const parentId = claudeMainId(facts.sessionId);
    if (agentId !== undefined) {
      const warm = warmup.reason(
        main.firstPrompt,
        main.builder.events.some((e) => e.type === 'user/message'),
      );
      if (warm !== undefined) return { kind: 'empty', reason: warm, reports, hash: end.hash };
      if (main.builder.hasConversation)
        plans.push(
          childPlan(
            claudeAgentId(facts.sessionId, agentId),
            agentId,
            parentId,
            main,
            labelOf((await metaRole(unit)) ?? (await parentRole())),
          ),
        );
    } else {
      if (main.builder.hasConversation) plans.push(mainPlan(parentId, facts.sessionId, main));
      for (const side of sidechains) {
        if (!side.stream.builder.hasConversation) continue;
        const { root, stream } = side;
        plans.push(
          childPlan(
            claudeSidechainId(facts.sessionId, root),
            root,
            parentId,
            stream,
            labelOf(side.role),
            side.late,
          ),
        );
      }
    }
    if (plans.length === 0)
      return { kind: 'empty', reason: 'no conversation records', reports, hash: end.hash };
    return { kind: 'sessions', plans, reports, hash: end.hash, ...exported.facts() };
  };
  return { feed, result };

  function newSidechain(root: string): ClaudeStream {
    const stream = new ClaudeStream('agent');
    sidechains.push({ root, stream, role: undefined, late: undefined });
    return stream;
  }

  /** Task calls just read: each labels the first unlabelled sidechain that already ran its prompt. */
  function labelSidechains(roles: readonly { prompt: string; role: AgentRole }[], time: number): void {
    for (const { prompt, role } of roles) {
      const side = sidechains.find(
        (s) => s.role === undefined && s.late === undefined && s.stream.firstPrompt === prompt,
      );
      if (side === undefined) continue;
      taskRoles.get(prompt)?.splice(taskRoles.get(prompt)!.indexOf(role), 1);
      side.late = { label: labelOf(role), at: side.stream.builder.events.length, time };
    }
  }
}

function descriptorOf(label: string | undefined): SessionEventInput {
  const short = label === undefined ? undefined : shortTitle(label);
  return descriptorEvent(
    short === undefined ? { version: 2, mode: 'one-shot' } : { version: 2, mode: 'one-shot', label: short },
  );
}

/** The role a 2.1 subagent's `.meta.json` companion states, if it has one. */
async function metaRole(unit: SourceUnit): Promise<AgentRole | undefined> {
  const metaFile = unit.companions.find((c) => c.endsWith('.meta.json'));
  return metaFile === undefined ? undefined : readAgentMeta(metaFile);
}

/** An inline 1.0 sidechain and its role: known when its prompt showed, or learned from a later Task call. */
interface Sidechain {
  readonly root: string;
  readonly stream: ClaudeStream;
  role: AgentRole | undefined;
  /** A label read after the sidechain started: a second descriptor, after its first `at` events. */
  late: LateLabel | undefined;
}

interface LateLabel {
  readonly label: string | undefined;
  readonly at: number;
  readonly time: number;
}

/** Collects the Task/Agent calls of an assistant line by prompt; returns the ones it added. */
function collectTaskRoles(
  record: JsonRecord,
  roles: Map<string, AgentRole[]>,
): { prompt: string; role: AgentRole }[] {
  const added: { prompt: string; role: AgentRole }[] = [];
  const message = isRecord(record.message) ? record.message : undefined;
  if (message === undefined || !Array.isArray(message.content)) return added;
  for (const block of message.content) {
    if (
      !isRecord(block) ||
      block.type !== 'tool_use' ||
      (block.name !== 'Task' && block.name !== 'Agent') ||
      !isRecord(block.input)
    )
      continue;
    const prompt = str(block.input.prompt);
    if (prompt === undefined) continue;
    const description = str(block.input.description);
    const type = str(block.input.subagent_type);
    const role = {
      ...defined({ description, type }),
    };
    const list = roles.get(prompt);
    if (list === undefined) roles.set(prompt, [role]);
    else list.push(role);
    added.push({ prompt, role });
  }
  return added;
}

function mainPlan(id: SessionId, sourceId: string, stream: ClaudeStream): SessionPlan {
  return {
    header: {
      id,
      createdAt: stream.firstTime ?? 0,
      ...defined({ cwd: stream.cwd }),
      source: { harness: 'claude-code', sourceId },
    },
    events: stream.builder.events,
    attachments: stream.attachments.items,
  };
}

/** `sourceId`: the subagent's `agentId`, or the uuid of an inline sidechain's first line. */
function childPlan(
  id: SessionId,
  sourceId: string,
  parentSession: SessionId,
  stream: ClaudeStream,
  label: string | undefined,
  late?: LateLabel,
): SessionPlan {
  let events: readonly SessionEventInput[] = stream.builder.events;
  const descriptor: SessionEventInput = {
    ...descriptorOf(label),
    time: events[0]?.time ?? stream.firstTime ?? 0,
  };
  // The identity unit takes the last descriptor: a label learned late is a second one, placed
  // where it was learned, so the events before it stay what a shorter file mapped to.
  if (late !== undefined && late.label !== undefined)
    events = [
      ...events.slice(0, late.at),
      { ...descriptorOf(late.label), time: late.time },
      ...events.slice(late.at),
    ];
  return {
    header: {
      id,
      createdAt: stream.firstTime ?? 0,
      ...defined({ cwd: stream.cwd }),
      parentSession,
      origin: 'subagent',
      delegationDepth: 1,
      source: { harness: 'claude-code', sourceId },
    },
    events: [descriptor, ...events],
    attachments: stream.attachments.items,
  };
}
