import { defined } from '@strand/session';
import { AttachmentSink } from '../mapping/attachments.js';
import type { FileReports } from '../mapping/file-reports.js';
import { TranscriptBuilder, type Author } from '../mapping/transcript-builder.js';
import { NO_USAGE, excessOver, maxUsage, usage as usageOf, type Usage } from '../mapping/usage.js';
import { count, isRecord, str, timeOf, type JsonRecord } from '../source/json-record.js';
import { CONTEXT_ATTACHMENTS } from './records.js';
import { classifyUserLine, contentBlocks, resultContent } from './user-content.js';

const PROVIDER = 'anthropic';
// Claude Code writes local failures as assistant lines from this pseudo-model; no request was made.
const SYNTHETIC_MODEL = '<synthetic>';
// Local slash commands that leave Claude Code without asking the model anything.
const EXIT_COMMANDS = new Set(['exit', 'quit']);

/**
 * The records of one Claude Code conversation (a main session, an inline sidechain, or a
 * subagent file) mapped to events, in file order, each line to its own events (the prefix law of
 * `TranscriptBuilder`): the streamed chunks of one response are one `assistant/message` each.
 */
export class ClaudeStream {
  readonly builder = new TranscriptBuilder();
  readonly attachments = new AttachmentSink();
  firstTime: number | undefined;
  cwd: string | undefined;
  /** The text of the first prompt (an inline sidechain's Task prompt, matched to its call). */
  firstPrompt: string | undefined;
  /**
   * The usage already written per response (`message.id`). Every streamed chunk repeats its
   * response's usage with output growing, so each chunk carries only the growth since the last
   * chunk written, per kind: the response's totals come out as the largest each kind reached,
   * with no chunk rewritten (a chunk whose figure is lower adds nothing).
   */
  readonly #usageWritten = new Map<string, Usage>();

  /** `agent` in a subagent: its prompts come from the parent. */
  readonly #promptAuthor: Author;

  constructor(promptAuthor: Author) {
    this.#promptAuthor = promptAuthor;
  }

  /** Notes the envelope facts every record may carry; returns the record's time. */
  stamp(record: JsonRecord): number {
    const time = timeOf(record.timestamp);
    if (time !== undefined) this.firstTime ??= time;
    this.cwd ??= str(record.cwd);
    return time ?? this.builder.lastTime ?? this.firstTime ?? 0;
  }

  user(record: JsonRecord, time: number): void {
    this.builder.flushAssistant();
    const line = classifyUserLine(record, this.attachments);
    switch (line.kind) {
      case 'prompt':
        this.firstPrompt ??= typeof line.content === 'string' ? line.content : undefined;
        this.builder.prompt(line.content, this.#promptAuthor, time, defined({ titleText: line.titleText }));
        return;
      case 'command':
        this.builder.command(line.name, line.args, time);
        // `/exit` runs no model call: the turn it opens is over, not cut off.
        if (EXIT_COMMANDS.has(line.name)) this.builder.endTurn('completed');
        return;
      case 'command-output':
        for (const output of line.outputs) this.builder.commandOutput(output.text, output.stream, time);
        return;
      case 'system':
        this.builder.note(line.content, time);
        return;
      case 'interrupt':
        this.builder.endTurn('aborted');
        return;
      case 'results':
        for (const item of line.items) {
          if (item.kind === 'result') this.builder.toolResult(item.callId, item.content, item.isError, time);
          else if (item.kind === 'text') this.builder.note(item.content, time);
          else this.builder.endTurn('aborted');
        }
        return;
      default: {
        const exhaustive: never = line;
        return exhaustive;
      }
    }
  }

  /** The parent's prompt of a child file that starts with the reply (recovered from the parent's call). */
  recoveredPrompt(prompt: string, time: number): void {
    this.firstPrompt ??= prompt;
    this.builder.prompt(prompt, this.#promptAuthor, time, { titleText: prompt });
  }

  assistant(record: JsonRecord, time: number): void {
    const message = isRecord(record.message) ? record.message : {};
    const id = str(message.id) ?? str(record.uuid) ?? '';
    this.builder.flushAssistant();
    const model = str(message.model);
    const synthetic = model === SYNTHETIC_MODEL || record.isApiErrorMessage === true;
    if (model !== undefined && !synthetic) this.builder.assistantRoute({ provider: PROVIDER, model }, time);
    const blocks =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : Array.isArray(message.content)
          ? message.content
          : [];
    const texts: string[] = [];
    let shown = false;
    for (const block of blocks) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') {
        texts.push(block.text);
        shown ||= block.text.length > 0;
        this.builder.assistantText(block.text, time);
      } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
        shown = true;
        this.builder.assistantToolCall(
          str(block.id) ?? '',
          str(block.name) ?? 'unknown',
          JSON.stringify(block.input ?? {}),
          time,
        );
      } else if (typeof block.tool_use_id === 'string') {
        // Results inside assistant content: server tools (web search) and a few client ones.
        this.builder.toolResult(
          block.tool_use_id,
          resultContent(block.content, this.attachments),
          block.is_error === true,
          time,
        );
      } else if (block.type === 'image') {
        shown = true;
        for (const b of contentBlocks([block], this.attachments)) this.builder.assistantBlock(b, time);
      }
      // thinking / redacted_thinking: private reasoning, not conversation content.
    }
    // A chunk with nothing to show (thinking only) writes nothing: its usage rides on the
    // response's next chunk, as growth since what was written.
    const usage = isRecord(message.usage) ? message.usage : undefined;
    if (usage !== undefined && shown) {
      const now = claudeUsage(usage);
      const before = this.#usageWritten.get(id) ?? NO_USAGE;
      this.builder.assistantUsage(excessOver(now, before), 'add');
      this.#usageWritten.set(id, maxUsage(now, before));
    }
    if (record.isApiErrorMessage === true)
      this.builder.turnError(texts.join('\n') || str(record.error) || 'API error');
    this.builder.flushAssistant();
  }

  /** `system` records: only a recorded turn end matters to the event log; the rest are counted. */
  system(record: JsonRecord, reports: FileReports): void {
    if (record.subtype === 'turn_duration') this.builder.endTurn('auto');
    else reports.ignore(`system:${str(record.subtype) ?? '(none)'}`);
  }

  /**
   * An `attachment` record (2.1.3xx): something attached to the prompt before it went to the
   * model. A file or folder the person named with `@` is theirs: an image joins the open turn as
   * the person's image, a text file or a folder listing is kept as injected context (the harness
   * sends it to the model as a system reminder). The model identity is the session's route. The
   * rest is context the harness gives the model: counted, not written.
   */
  attachment(record: JsonRecord, time: number, line: number, reports: FileReports): void {
    const attachment = isRecord(record.attachment) ? record.attachment : {};
    const type = str(attachment.type) ?? '(none)';
    if (type === 'file') {
      const content = isRecord(attachment.content) ? attachment.content : {};
      const file = isRecord(content.file) ? content.file : {};
      const name = str(attachment.displayPath) ?? str(attachment.filename) ?? 'a file';
      if (content.type === 'image' && typeof file.base64 === 'string') {
        const image = this.attachments.image(file.base64, str(file.type) ?? 'application/octet-stream');
        this.builder.prompt([image], this.#promptAuthor, time, { startsTurn: false });
      } else if (typeof file.content === 'string')
        this.builder.note(`Attached file ${name}:\n${file.content}`, time);
      else reports.ignore(`attachment:file:${str(content.type) ?? '(none)'}`);
    } else if (type === 'directory') {
      const name = str(attachment.displayPath) ?? str(attachment.path) ?? 'a folder';
      this.builder.note(`Attached folder ${name}:\n${str(attachment.content) ?? ''}`, time);
    } else if (type === 'model') {
      const identity = isRecord(attachment.identity) ? attachment.identity : {};
      const model = str(identity.modelId);
      if (model !== undefined) this.builder.announceRoute({ provider: PROVIDER, model }, time);
    } else if (CONTEXT_ATTACHMENTS.has(type)) reports.ignore(`attachment:${type}`);
    else reports.unknown(line, `attachment type "${type}"`);
  }

  title(text: string, time: number | undefined): void {
    this.builder.explicitTitle(text, time);
  }

  /**
   * A `cost-state` record: the harness's running cost of the session (`totalCostUSD`) and per
   * model (`modelUsage.<model>.costUSD`), as its status line shows them. Written beside Strand's
   * own figure; its token counts are not read (the responses' usage already counts them once).
   * False for a record without a readable total.
   */
  costState(record: JsonRecord, time: number): boolean {
    const usd = record.totalCostUSD;
    if (!isUsd(usd)) return false;
    const byModel: Record<string, number> = {};
    if (isRecord(record.modelUsage))
      for (const [model, usage] of Object.entries(record.modelUsage))
        if (isRecord(usage) && isUsd(usage.costUSD)) byModel[model] = usage.costUSD;
    this.builder.reportedCost(usd, Object.keys(byModel).length > 0 ? byModel : undefined, time);
    return true;
  }

  finish(): void {
    this.builder.finish();
  }
}

const isUsd = (value: unknown): value is number =>
  typeof value === 'number' && value >= 0 && value <= Number.MAX_SAFE_INTEGER;

/**
 * The Messages API's usage in the log's meaning: `input_tokens` is already fresh input, the cache
 * writes and reads come apart; thinking is inside `output_tokens` and not reported on its own.
 */
function claudeUsage(raw: JsonRecord): Usage {
  return usageOf({
    input: count(raw.input_tokens),
    output: count(raw.output_tokens),
    cacheCreation: count(raw.cache_creation_input_tokens),
    cacheRead: count(raw.cache_read_input_tokens),
  });
}
