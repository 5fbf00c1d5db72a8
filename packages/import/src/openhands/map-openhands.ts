import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { AttachmentSink, type ContentBlock, toContent } from '../mapping/attachments.js';
import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { TranscriptBuilder, type Route } from '../mapping/transcript-builder.js';
import { usage, type Usage } from '../mapping/usage.js';
import type { SessionPeek, SourceUnit } from '../run/harness-importer.js';
import { hashBytes } from '../source/file-hash.js';
import { readAhead } from '../source/read-ahead.js';
import { count, isRecord, str, type JsonRecord } from '../source/json-record.js';
import type { OpenhandsFacts } from './peek.js';

/**
 * Actions that are tool calls of the agent (`ActionType` in `openhands/core/schema/action.py`):
 * each is answered by an observation whose `cause` is the action's id.
 */
const TOOL_ACTIONS = new Set([
  'run',
  'run_ipython',
  'read',
  'write',
  'edit',
  'browse',
  'browse_interactive',
  'call_tool_mcp',
  'delegate',
  'think',
  'task_tracking',
  'push',
  'send_pr',
]);
// Actions with nothing for the log: the system prompt (`system`, with the tool list), the
// microagent lookup (`recall`), state bookkeeping, a request for condensation, no-ops.
const QUIET_ACTIONS = new Set([
  'system',
  'recall',
  'change_agent_state',
  'null',
  'condensation_request',
  'pause',
  'resume',
  'stop',
  'start',
  'loop_recovery',
]);
// Observations that answer a tool call (`ObservationType` in `openhands/core/schema/observation.py`).
const TOOL_OBSERVATIONS = new Set([
  'run',
  'run_ipython',
  'read',
  'write',
  'edit',
  'browse',
  'mcp',
  'think',
  'delegate',
  'task_tracking',
  'download',
  'success',
  'error',
  'user_rejected',
]);
// Observations with nothing for the log: microagent knowledge (`recall`), no-ops, loop notices.
const QUIET_OBSERVATIONS = new Set(['recall', 'null', 'loop_detection']);
// Agent states after which the controller waits for the person: the turn is over
// (`AgentState` in `openhands/core/schema/agent.py`).
const TURN_ENDS: Readonly<Record<string, 'completed' | 'error' | 'interrupted' | 'aborted'>> = {
  awaiting_user_input: 'completed',
  finished: 'completed',
  error: 'error',
  stopped: 'interrupted',
  paused: 'interrupted',
  rejected: 'aborted',
};
// OpenHands titles a conversation so until it generates a title (`get_default_conversation_title`).
const DEFAULT_TITLE = /^Conversation [0-9a-f]{5}$/;

/**
 * Maps one OpenHands conversation — its `events/<n>.json` files in event-id order, and
 * `metadata.json` — to one session. Every event maps to its own events, from itself and the
 * events before it only (the prefix law): a conversation with more event files maps to an
 * extension. The unit is read whole on every change (a folder of files, not a file appended to).
 */
export async function mapOpenhands(unit: SourceUnit, peek: SessionPeek): Promise<MappedFile> {
  const facts = peek.facts as OpenhandsFacts;
  const reports = new FileReports(unit.file);
  // The ledger keeps the first event file's digest and one per companion (`combineHashes`), as
  // `unitHash` computes them from disk: a touched conversation is then told by its digests alone.
  let digest = '';
  const metadataFile = unit.companions.find((f) => path.basename(f) === 'metadata.json');
  const files = [unit.file, ...unit.companions.filter((f) => f !== metadataFile)];
  const companionHashes = new Map<string, string>();
  let metadata: JsonRecord = {};
  if (metadataFile !== undefined) {
    try {
      const bytes = await fsp.readFile(metadataFile);
      companionHashes.set(metadataFile, hashBytes(bytes));
      const value: unknown = JSON.parse(bytes.toString('utf8'));
      if (isRecord(value)) metadata = value;
    } catch {
      // metadata.json is rewritten in place; unreadable now, it only costs the title and the model.
      reports.note(null, 'metadata.json unreadable (title and model left out)');
    }
  }
  const builder = new TranscriptBuilder();
  const sink = new AttachmentSink();
  const mapper = new EventMapper(builder, sink, reports, metadata);
  let firstTime: number | undefined;
  // Whether every event file parsed: one that did not may be cut mid-write (`LocalFileStore.write`
  // writes in place), so the ledger must stamp it on its own to see it completed.
  let wholeFolder = true;
  // Event files are small and many: read ahead of the mapping, in event order.
  for await (const read of readAhead(files)) {
    const { file } = read;
    if ('error' in read)
      // An event file deleted between discovery and the read: the next change reads it again.
      return { kind: 'failed', reason: `cannot read ${path.basename(file)}: ${read.error.message}`, reports };
    const { bytes } = read;
    if (file === unit.file) digest = hashBytes(bytes);
    else companionHashes.set(file, hashBytes(bytes));
    let event: unknown;
    try {
      event = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      wholeFolder = false;
      reports.skipRecord(null, `${path.basename(file)}: malformed JSON (${(error as Error).message})`);
      continue;
    }
    if (!isRecord(event)) {
      reports.skipRecord(null, `${path.basename(file)}: not a JSON object`);
      continue;
    }
    const time = timeOf(event.timestamp) ?? builder.lastTime ?? 0;
    firstTime ??= timeOf(event.timestamp);
    mapper.event(event, time, path.basename(file));
  }
  builder.finish();
  if (!builder.hasConversation)
    return {
      kind: 'empty',
      reason: 'no conversation events',
      reports,
      hash: digest,
      companionHashes,
      wholeFolder,
    };
  const plan: SessionPlan = {
    header: {
      id: peek.primaryId,
      createdAt: timeOf(metadata.created_at) ?? firstTime ?? builder.events[0]?.time ?? 0,
      source: { harness: 'openhands', sourceId: facts.conversationId },
    },
    events: builder.events,
    attachments: sink.items,
  };
  return { kind: 'sessions', plans: [plan], reports, hash: digest, companionHashes, wholeFolder };
}

class EventMapper {
  #accumulated: Usage = usage({});
  #cost = 0;
  #titled = false;
  /** The tool call id of each action event, by event id (observations name their action by `cause`). */
  readonly #callOf = new Map<number, string>();
  readonly #provider: string;

  constructor(
    private readonly builder: TranscriptBuilder,
    private readonly sink: AttachmentSink,
    private readonly reports: FileReports,
    private readonly metadata: JsonRecord,
  ) {
    // OpenHands calls models through LiteLLM: `llm_model` is `<provider>/<model>` when a provider is named.
    const model = str(metadata.llm_model) ?? '';
    this.#provider = model.includes('/') ? model.slice(0, model.indexOf('/')) : 'litellm';
  }

  event(e: JsonRecord, time: number, file: string): void {
    const action = str(e.action);
    const observation = str(e.observation);
    if (action !== undefined) this.#action(e, action, time);
    else if (observation !== undefined) this.#observation(e, observation, time);
    else this.reports.skipRecord(null, `${file}: neither an action nor an observation`);
  }

  #action(e: JsonRecord, action: string, time: number): void {
    const b = this.builder;
    const args = isRecord(e.args) ? e.args : {};
    const source = str(e.source);
    if (QUIET_ACTIONS.has(action)) {
      this.reports.ignore(`action ${action}`);
      return;
    }
    if (action === 'message' && source === 'user') {
      const blocks: ContentBlock[] = [];
      const text = str(args.content) ?? '';
      for (const url of Array.isArray(args.image_urls) ? args.image_urls : [])
        if (typeof url === 'string') blocks.push(this.sink.imageUrl(url));
      for (const url of Array.isArray(args.file_urls) ? args.file_urls : [])
        if (typeof url === 'string') blocks.push({ type: 'text', text: `[file: ${url}]` });
      if (text.length > 0) blocks.push({ type: 'text', text });
      if (blocks.length === 0) return;
      b.prompt(toContent(blocks), 'human', time, { titleText: text });
      return;
    }
    if (source !== 'agent') {
      // A command the person ran in the terminal, a file they opened: not the agent's doing.
      this.reports.ignore(`${String(source)} action ${action}`);
      return;
    }
    const route = this.#route(e);
    if (route !== undefined) b.assistantRoute(route, time);
    if (action === 'message') b.assistantText(str(args.content) ?? '', time);
    else if (action === 'finish')
      b.assistantText(str(args.final_thought) || str(args.thought) || finishContent(args), time);
    else if (action === 'reject') b.assistantText(`[task rejected] ${str(args.thought) ?? ''}`.trim(), time);
    else if (action === 'condensation') {
      // The condenser dropped events from what the model sees: a compaction marker.
      b.note('[conversation condensed]', time);
      return;
    } else if (TOOL_ACTIONS.has(action)) {
      const meta = isRecord(e.tool_call_metadata) ? e.tool_call_metadata : {};
      const id = str(meta.tool_call_id) ?? `event-${String(e.id)}`;
      if (typeof e.id === 'number') this.#callOf.set(e.id, id);
      // The response's text rides on its first action as `thought` (a think action's is its argument).
      const { thought, ...rest } = args;
      if (action !== 'think' && typeof thought === 'string') b.assistantText(thought, time);
      const callArgs = action === 'think' ? { thought } : rest;
      b.assistantToolCall(id, str(meta.function_name) ?? action, JSON.stringify(callArgs), time);
    } else {
      this.reports.unknown(null, `action "${action}"`);
      return;
    }
    this.#usage(e);
    b.flushAssistant();
    this.#reportCost(e, time);
    const title = str(this.metadata.title)?.trim();
    if (!this.#titled && title !== undefined && title !== '' && !DEFAULT_TITLE.test(title)) {
      // OpenHands titles the conversation after its first exchange.
      this.#titled = true;
      b.explicitTitle(title, time);
    }
  }

  #observation(e: JsonRecord, observation: string, time: number): void {
    const b = this.builder;
    const extras = isRecord(e.extras) ? e.extras : {};
    if (QUIET_OBSERVATIONS.has(observation)) {
      this.reports.ignore(`observation ${observation}`);
      return;
    }
    if (observation === 'agent_state_changed') {
      const state = str(extras.agent_state) ?? '';
      const reason = TURN_ENDS[state];
      if (reason === 'error') b.endTurn('error', time, str(extras.reason) || 'error');
      else if (reason !== undefined) b.endTurn(reason, time);
      return;
    }
    if (observation === 'condense') {
      // What the condenser kept of the dropped events (its summary), shown to the model.
      const content = str(e.content) ?? '';
      if (content.length > 0) b.note(content, time);
      return;
    }
    if (!TOOL_OBSERVATIONS.has(observation)) {
      this.reports.unknown(null, `observation "${observation}"`);
      return;
    }
    const meta = isRecord(e.tool_call_metadata) ? e.tool_call_metadata : {};
    const cause = typeof e.cause === 'number' ? e.cause : undefined;
    const id = str(meta.tool_call_id) ?? (cause === undefined ? undefined : this.#callOf.get(cause));
    const content = str(e.content) ?? '';
    if (id === undefined) {
      // An error the controller reported outside any tool call (a model failure): the turn's error.
      if (observation === 'error') b.turnError(content);
      else this.reports.ignore(`observation ${observation} without its action`);
      return;
    }
    const metadata = isRecord(extras.metadata) ? extras.metadata : {};
    const failed =
      observation === 'error' ||
      observation === 'user_rejected' ||
      e.success === false ||
      (typeof metadata.exit_code === 'number' && metadata.exit_code !== 0 && metadata.exit_code !== -1);
    b.toolResult(id, content, failed, time);
  }

  /** The model of the response: its `model_response.model`, else the conversation's `llm_model`. */
  #route(e: JsonRecord): Route | undefined {
    const meta = isRecord(e.tool_call_metadata) ? e.tool_call_metadata : {};
    const response = isRecord(meta.model_response) ? meta.model_response : {};
    const model = str(response.model) ?? str(this.metadata.llm_model);
    if (model === undefined) return undefined;
    return {
      provider: this.#provider,
      model: model.includes('/') ? model.slice(model.indexOf('/') + 1) : model,
    };
  }

  /**
   * `llm_metrics.accumulated_token_usage` is the conversation's running total when the event was
   * written; a response's usage is its growth since the last event that carried it, so a response
   * whose actions all carry one snapshot is counted once. LiteLLM's `prompt_tokens` include the
   * cache reads and writes, which are taken out for the fresh input.
   */
  #usage(e: JsonRecord): void {
    const metrics = isRecord(e.llm_metrics) ? e.llm_metrics : undefined;
    const total =
      metrics !== undefined && isRecord(metrics.accumulated_token_usage)
        ? metrics.accumulated_token_usage
        : undefined;
    if (total === undefined) return;
    const cacheRead = count(total.cache_read_tokens);
    const cacheCreation = count(total.cache_write_tokens);
    const now = usage({
      input: Math.max(0, count(total.prompt_tokens) - cacheRead - cacheCreation),
      output: count(total.completion_tokens),
      cacheRead,
      cacheCreation,
    });
    const before = this.#accumulated;
    const delta = usage({
      input: Math.max(0, now.input - before.input),
      output: Math.max(0, now.output - before.output),
      cacheRead: Math.max(0, now.cacheRead - before.cacheRead),
      cacheCreation: Math.max(0, now.cacheCreation - before.cacheCreation),
    });
    this.#accumulated = now;
    this.builder.assistantUsage(delta, 'add');
  }

  /** The harness's own running cost (`llm_metrics.accumulated_cost`), when it grew. */
  #reportCost(e: JsonRecord, time: number): void {
    const metrics = isRecord(e.llm_metrics) ? e.llm_metrics : undefined;
    const cost =
      metrics !== undefined && typeof metrics.accumulated_cost === 'number' ? metrics.accumulated_cost : 0;
    if (cost <= this.#cost) return;
    this.#cost = cost;
    this.builder.reportedCost(cost, undefined, time);
  }
}

function finishContent(args: JsonRecord): string {
  const outputs = isRecord(args.outputs) ? args.outputs : {};
  return str(outputs.content) ?? '';
}

/**
 * OpenHands stamps events with `datetime.now().isoformat()`: local time without an offset. Read
 * as UTC (the machine's zone is not recorded), so the same files map the same everywhere.
 */
function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const iso = /(?:Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  const ms = Date.parse(iso);
  return Number.isSafeInteger(ms) ? ms : undefined;
}
