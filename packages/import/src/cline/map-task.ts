import { defined } from '@strand/session';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { descriptorEvent } from '@strand/subagent';
import type { SessionEventInput } from '@strand/session';
import { AttachmentSink, toContent, type ContentBlock } from '../mapping/attachments.js';
import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { TranscriptBuilder, type Author, type Route } from '../mapping/transcript-builder.js';
import { usage, type Usage } from '../mapping/usage.js';
import type { SessionPeek, SourceUnit } from '../run/harness-importer.js';
import { hashBytes } from '../source/file-hash.js';
import { count, isRecord, str, timeOf, type JsonRecord } from '../source/json-record.js';
import { TASK_FILES } from './discover.js';
import { taskSessionId, type TaskFacts, type TaskHarness } from './peek.js';

// What the person typed, as Cline and Roo Code wrap it in the user messages they send: the task,
// feedback on a tool or a completion, an answer to a question, a message after a resumption.
// The SDK (CLI 3.x) wraps every typed message in `<user_input mode="act|plan">`.
const HUMAN_WRAPPED = /<(task|feedback|answer|user_message|user_input)(?:\s[^>]*)?>\n?([\s\S]*?)\n?<\/\1>/g;
// A slash command (`/newtask`, `/smol`, a workflow) is cut from the typed text and its
// instructions put before the wrapped text (`src/core/slash-commands/index.ts`).
const SLASH_COMMAND = /<explicit_instructions type="([^"]+)">/g;
// Context the harness attaches to every request: not conversation (like Claude Code's reminders).
const ENVIRONMENT = /^\s*<environment_details>[\s\S]*<\/environment_details>\s*$/;
// How Cline marks a response the person (or an API error) cut short, appended to its text.
const INTERRUPTED_BY_USER = /\[Response interrupted by user\]\s*$/;
const INTERRUPTED_BY_ERROR = /\[Response interrupted by API Error\]\s*$/;

/** One `say: "api_req_started"` of `ui_messages.json`: one API request with its usage and cost. */
interface ApiRequest {
  readonly ts: number | undefined;
  readonly info: JsonRecord;
  readonly route: Route | undefined;
}

/** What the task folder's other files add to the API history. */
interface TaskSide {
  /** The requests that got a response, in order: the k-th answers the k-th assistant message. */
  readonly requests: readonly ApiRequest[];
  /** The time the task started (its first UI message). */
  readonly startTs: number | undefined;
  /** The title the harness shows (Roo's history item `task`). */
  readonly title: string | undefined;
  readonly cwd: string | undefined;
  /** `task_metadata.json`'s `model_usage`, in time order. */
  readonly models: readonly { ts: number; route: Route }[];
  /** An SDK session: usage from each message's own `metrics`, unwrapped text a delegated prompt. */
  readonly sdk: boolean;
}

/**
 * Maps one task folder to one session: the conversation from `api_conversation_history.json`
 * (Anthropic-style messages), times, usage and cost from `ui_messages.json`, models from the
 * messages' `modelInfo` or `task_metadata.json`. Both files are rewritten whole on every save, so
 * a task is mapped whole on every change; what a save appends extends the stored log, and a
 * rewrite that is no extension (a checkpoint restore deleting messages) replaces the session.
 */
export async function mapTask(
  harness: TaskHarness,
  unit: SourceUnit,
  peek: SessionPeek,
): Promise<MappedFile> {
  const reports = new FileReports(unit.file);
  const bytes = await fsp.readFile(unit.file);
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return {
      kind: 'failed',
      reason: `API history does not parse (truncated by a crash?): ${(error as Error).message}`,
      reports,
    };
  }
  const facts = peek.facts as TaskFacts;
  const messages = facts.format === 'sdk' ? (isRecord(raw) ? raw.messages : undefined) : raw;
  if (!Array.isArray(messages))
    return {
      kind: 'failed',
      reason:
        facts.format === 'sdk' ? 'session file has no messages array' : 'API history is not a JSON array',
      reports,
    };
  // Companions read here are hashed from the same bytes, not read again for the ledger's digest.
  const companionHashes = new Map<string, string>();
  const readCompanion = async (file: string): Promise<unknown> => {
    const companionBytes = await fsp.readFile(file);
    companionHashes.set(file, hashBytes(companionBytes));
    return JSON.parse(companionBytes.toString('utf8'));
  };
  const side =
    facts.format === 'sdk'
      ? await readManifest(unit, reports, readCompanion)
      : await readSide(unit, reports, readCompanion);
  // A subtask's prompts are the delegating agent's messages, not a person's.
  const mapping = new TaskMapping(side, reports, facts.parentTaskId === undefined ? 'human' : 'agent');
  if (side.title !== undefined) mapping.builder.explicitTitle(side.title, side.startTs);
  messages.forEach((message, index) => mapping.message(message, index));
  const builder = mapping.builder;
  builder.finish();
  const hash = hashBytes(bytes);
  if (!builder.hasConversation)
    return { kind: 'empty', reason: 'no conversation messages', reports, hash, companionHashes };
  const createdAt = side.startTs ?? builder.events[0]?.time ?? 0;
  const header = {
    id: peek.primaryId,
    createdAt,
    ...defined({ cwd: side.cwd }),
    source: { harness, sourceId: facts.taskId },
  };
  const sink = mapping.sink.items;
  if (facts.parentTaskId === undefined)
    return {
      kind: 'sessions',
      plans: [{ header, events: builder.events, attachments: sink }],
      reports,
      hash,
      companionHashes,
    };
  // A Roo Code subtask (`new_task`): a child of the task that delegated it, its prompt the parent
  // agent's message.
  const descriptor: SessionEventInput = {
    ...descriptorEvent({ version: 2, mode: 'one-shot' }),
    time: builder.events[0]?.time ?? createdAt,
  };
  const plan: SessionPlan = {
    header: {
      ...header,
      parentSession: taskSessionId(harness, facts.parentTaskId),
      origin: 'subagent',
      delegationDepth: 1,
    },
    events: [descriptor, ...builder.events],
    attachments: sink,
  };
  return { kind: 'sessions', plans: [plan], reports, hash, companionHashes };
}

class TaskMapping {
  readonly builder = new TranscriptBuilder();
  readonly sink = new AttachmentSink();
  readonly #side: TaskSide;
  readonly #reports: FileReports;
  readonly #author: Author;
  #answered = 0;
  #cost = 0;
  #lastCost = 0;

  constructor(side: TaskSide, reports: FileReports, author: Author) {
    this.#side = side;
    this.#reports = reports;
    this.#author = author;
  }

  message(message: unknown, index: number): void {
    // The file is one JSON document: its messages are "records" at their index (1-based, as the
    // reports' line numbers are).
    const where = index + 1;
    if (!isRecord(message)) {
      this.#reports.skipRecord(null, `message ${where}: not an object`);
      return;
    }
    // Roo Code keeps reasoning items of the Responses API as messages of their own.
    if (message.type === 'reasoning') {
      this.#reports.ignore('reasoning');
      return;
    }
    if (message.role === 'user') this.#user(message);
    else if (message.role === 'assistant') this.#assistant(message, where);
    else this.#reports.unknown(null, `message role "${String(message.role)}"`);
  }

  #user(m: JsonRecord): void {
    const time = this.#time(m);
    const human: ContentBlock[] = [];
    const system: ContentBlock[] = [];
    const results: { id: string; content: string | readonly ContentBlock[]; isError: boolean }[] = [];
    for (const block of blocksOf(m.content)) {
      if (!isRecord(block)) continue;
      switch (block.type) {
        case 'text': {
          const text = str(block.text) ?? '';
          if (ENVIRONMENT.test(text)) {
            this.#reports.ignore('environment_details');
            break;
          }
          const typed = [...text.matchAll(HUMAN_WRAPPED)].map((match) => match[2]!);
          for (const command of text.matchAll(SLASH_COMMAND))
            system.push({ type: 'text', text: `[slash command: ${command[1]!}]` });
          if (typed.length > 0) human.push(...typed.map((t) => ({ type: 'text' as const, text: t })));
          // An SDK subagent's task arrives as plain text: the delegating agent's prompt.
          else if (this.#side.sdk && this.#author === 'agent' && text.length > 0)
            human.push({ type: 'text', text });
          else if (text.length > 0) system.push({ type: 'text', text });
          break;
        }
        case 'image':
          (human.length > 0 || system.length === 0 ? human : system).push(this.#image(block));
          break;
        case 'tool_result':
          results.push({
            id: str(block.tool_use_id) ?? '',
            content: this.#resultContent(block.content),
            // The SDK's tools answer with `{ query, result, error?, success }` items.
            isError:
              block.is_error === true ||
              (Array.isArray(block.content) && block.content.some((i) => isRecord(i) && i.success === false)),
          });
          break;
        case 'document':
          system.push({ type: 'text', text: '[document]' });
          break;
        default:
          this.#reports.unknown(null, `user content block "${String(block.type)}"`);
      }
    }
    for (const r of results) {
      this.builder.toolResult(r.id, r.content, r.isError, time);
      // Feedback on a completion or a denied call, an answer to a question: the person's words,
      // which native tool calling carries inside the result.
      const typed =
        typeof r.content === 'string' ? [...r.content.matchAll(HUMAN_WRAPPED)].map((m) => m[2]!) : [];
      if (typed.some((t) => t.length > 0))
        human.unshift(...typed.map((text) => ({ type: 'text' as const, text })));
    }
    // A summary written when the context was condensed (Roo Code) is the harness's own text.
    if (m.isSummary === true) {
      this.builder.note(toContent([...human, ...system]), time);
      return;
    }
    if (
      human.some((b) => b.type === 'text' && b.text.length > 0) ||
      (human.length > 0 && results.length === 0)
    ) {
      // Typed alongside tool results (feedback on a denied call) the message joins the open turn;
      // otherwise it starts one.
      this.builder.prompt(toContent(human), this.#author, time, {
        titleText: textOf(human),
        startsTurn: results.length === 0,
      });
    } else if (human.length > 0) system.push(...human);
    if (system.length > 0) this.builder.note(toContent(system), time);
  }

  #assistant(m: JsonRecord, where: number): void {
    const request = this.#side.requests[this.#answered];
    this.#answered++;
    const time = this.#time(m, request?.ts);
    const route = routeOf(m.modelInfo) ?? request?.route ?? this.#modelAt(time);
    if (route !== undefined) this.builder.assistantRoute(route, time);
    let text = '';
    for (const block of blocksOf(m.content)) {
      if (!isRecord(block)) continue;
      switch (block.type) {
        case 'text':
          text += str(block.text) ?? '';
          this.builder.assistantText(str(block.text) ?? '', time);
          break;
        case 'tool_use':
          this.builder.assistantToolCall(
            str(block.id) ?? `${where}`,
            str(block.name) ?? 'unknown',
            JSON.stringify(block.input ?? {}),
            time,
          );
          break;
        case 'thinking':
        case 'redacted_thinking':
        case 'reasoning':
          this.#reports.ignore(String(block.type));
          break;
        case 'image':
          this.builder.assistantBlock(this.#image(block), time);
          break;
        default:
          this.#reports.unknown(null, `assistant content block "${String(block.type)}"`);
      }
    }
    const used = this.#side.sdk
      ? sdkUsage(m.metrics)
      : request === undefined
        ? metricsUsage(m.metrics)
        : requestUsage(request.info);
    if (used !== undefined) this.builder.assistantUsage(used, 'replace');
    this.builder.flushAssistant();
    // Rounded to a billionth of a dollar: sums of binary fractions would print as 0.006999999….
    const cost = this.#side.sdk
      ? isRecord(m.metrics)
        ? num(m.metrics.cost)
        : 0
      : request === undefined
        ? 0
        : num(request.info.cost);
    this.#cost = Math.round((this.#cost + Math.max(0, cost)) * 1e9) / 1e9;
    if (this.#cost !== this.#lastCost) {
      this.#lastCost = this.#cost;
      this.builder.reportedCost(this.#cost, undefined, time);
    }
    if (INTERRUPTED_BY_USER.test(text)) this.builder.endTurn('aborted', time);
    else if (INTERRUPTED_BY_ERROR.test(text)) this.builder.turnError('response interrupted by an API error');
  }

  /** A message's own time (newer versions), else its request's, else the last one known. */
  #time(m: JsonRecord, requestTs?: number): number {
    const own = typeof m.ts === 'number' && Number.isSafeInteger(m.ts) ? m.ts : undefined;
    return own ?? requestTs ?? this.builder.lastTime ?? this.#side.startTs ?? 0;
  }

  #modelAt(time: number): Route | undefined {
    let found: Route | undefined;
    for (const entry of this.#side.models) if (entry.ts <= time || found === undefined) found = entry.route;
    return found;
  }

  #image(block: JsonRecord): ContentBlock {
    const source = isRecord(block.source) ? block.source : {};
    if (source.type === 'base64' && typeof source.data === 'string')
      return this.sink.image(source.data, str(source.media_type) ?? 'application/octet-stream');
    return { type: 'text', text: `[image: ${str(source.url) ?? 'no data'}]` };
  }

  #resultContent(content: unknown): string | readonly ContentBlock[] {
    if (typeof content === 'string') return content;
    // The SDK's tools answer with `{ query, result, error?, success }` items, which the model is
    // sent as their JSON text.
    if (Array.isArray(content) && content.some((item) => isRecord(item) && item.type === undefined))
      return JSON.stringify(content);
    const blocks: ContentBlock[] = [];
    for (const block of Array.isArray(content) ? content : []) {
      if (!isRecord(block)) continue;
      if (block.type === 'text') blocks.push({ type: 'text', text: str(block.text) ?? '' });
      else if (block.type === 'image') blocks.push(this.#image(block));
    }
    return toContent(blocks);
  }
}

/** Reads the companions; any that is absent or unreadable adds nothing (a note says why). */
async function readSide(
  unit: SourceUnit,
  reports: FileReports,
  readCompanion: (file: string) => Promise<unknown>,
): Promise<TaskSide> {
  const companion = async (name: string): Promise<unknown> => {
    const file = unit.companions.find((c) => path.basename(c) === name);
    if (file === undefined) return undefined;
    try {
      return await readCompanion(file);
    } catch (error) {
      reports.note(null, `${name} left out: ${(error as Error).message}`);
      return undefined;
    }
  };
  const ui = await companion(TASK_FILES.ui);
  const metadata = await companion(TASK_FILES.metadata);
  const item = await companion(TASK_FILES.historyItem);
  const requests: ApiRequest[] = [];
  let startTs: number | undefined;
  for (const message of Array.isArray(ui) ? ui : []) {
    if (!isRecord(message)) continue;
    const ts = typeof message.ts === 'number' && Number.isSafeInteger(message.ts) ? message.ts : undefined;
    startTs ??= ts;
    if (message.say !== 'api_req_started') continue;
    let info: unknown;
    try {
      info = JSON.parse(str(message.text) ?? '');
    } catch {
      continue;
    }
    // A request that never got an answer has neither usage nor a cancel reason (Cline removes
    // such placeholders when the task resumes; a live file may still hold the newest one).
    if (!isRecord(info) || !answered(info)) continue;
    requests.push({ ts, info, route: routeOf(message.modelInfo) });
  }
  const models: { ts: number; route: Route }[] = [];
  const usageRows = isRecord(metadata) && Array.isArray(metadata.model_usage) ? metadata.model_usage : [];
  for (const row of usageRows) {
    if (!isRecord(row)) continue;
    const model = str(row.model_id);
    const provider = str(row.model_provider_id);
    if (model !== undefined && provider !== undefined)
      models.push({ ts: num(row.ts), route: { provider, model } });
  }
  models.sort((a, b) => a.ts - b.ts);
  const historyItem = isRecord(item) ? item : undefined;
  return {
    requests,
    startTs: startTs ?? (typeof historyItem?.ts === 'number' ? historyItem.ts : undefined),
    title: str(historyItem?.task),
    cwd: str(historyItem?.workspace) ?? str(historyItem?.cwdOnTaskInitialization),
    models,
    sdk: false,
  };
}

/** An SDK session's manifest (`<id>.json`): its title, folder and start. */
async function readManifest(
  unit: SourceUnit,
  reports: FileReports,
  readCompanion: (file: string) => Promise<unknown>,
): Promise<TaskSide> {
  const file = unit.companions[0];
  let manifest: JsonRecord | undefined;
  if (file !== undefined)
    try {
      const raw = await readCompanion(file);
      if (isRecord(raw)) manifest = raw;
    } catch (error) {
      reports.note(null, `${path.basename(file)} left out: ${(error as Error).message}`);
    }
  const metadata = isRecord(manifest?.metadata) ? manifest.metadata : undefined;
  return {
    requests: [],
    startTs: timeOf(manifest?.started_at),
    title: str(metadata?.title),
    cwd: str(manifest?.cwd),
    models: [],
    sdk: true,
  };
}

function answered(info: JsonRecord): boolean {
  return ['tokensIn', 'tokensOut', 'cost', 'cancelReason'].some((key) => info[key] !== undefined);
}

/** `modelInfo`: `{ modelId, providerId }` (extension), `{ id, provider }` (SDK). */
function routeOf(value: unknown): Route | undefined {
  if (!isRecord(value)) return undefined;
  const model = str(value.modelId) ?? str(value.id);
  const provider = str(value.providerId) ?? str(value.provider);
  return model === undefined || provider === undefined ? undefined : { provider, model };
}

function blocksOf(content: unknown): unknown[] {
  if (typeof content === 'string') return content.length === 0 ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/**
 * `api_req_started`'s counts as Cline's Anthropic handler writes them: `tokensIn` is the fresh
 * input (cache writes and reads apart), `tokensOut` the output.
 */
function requestUsage(info: JsonRecord): Usage {
  return usage({
    input: count(info.tokensIn),
    output: count(info.tokensOut),
    cacheCreation: count(info.cacheWrites),
    cacheRead: count(info.cacheReads),
  });
}

/**
 * A message's own `metrics` (Cline ≥ 3.3x), used when no UI request answers it: `prompt` is the
 * request's input as `tokensIn` counts it, `cached` the cache writes and reads together (their
 * split is only in the UI messages), read here as cache reads.
 */
function metricsUsage(metrics: unknown): Usage | undefined {
  if (!isRecord(metrics) || !isRecord(metrics.tokens)) return undefined;
  return usage({
    input: count(metrics.tokens.prompt),
    output: count(metrics.tokens.completion),
    cacheRead: count(metrics.tokens.cached),
  });
}

/**
 * The SDK's per-message `metrics`: `inputTokens` is the request's whole prompt, cache reads and
 * writes included (its cost is priced on `inputTokens - cacheReadTokens - cacheWriteTokens` fresh,
 * `sdk/packages/llms/src/providers/ai-sdk.ts`; CLI 3.0.65 against an endpoint reporting 160
 * prompt tokens, 40 cached, wrote `inputTokens: 160, cacheReadTokens: 40`).
 */
function sdkUsage(metrics: unknown): Usage | undefined {
  if (!isRecord(metrics)) return undefined;
  const cacheRead = count(metrics.cacheReadTokens);
  const cacheCreation = count(metrics.cacheWriteTokens);
  return usage({
    input: Math.max(0, count(metrics.inputTokens) - cacheRead - cacheCreation),
    output: count(metrics.outputTokens),
    cacheCreation,
    cacheRead,
  });
}
