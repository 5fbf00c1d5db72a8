import { toContent, type AttachmentSink, type ContentBlock } from '../mapping/attachments.js';
import type { FileReports } from '../mapping/file-reports.js';
import type { TranscriptBuilder, Route } from '../mapping/transcript-builder.js';
import { isRecord, str, type JsonRecord } from '../source/json-record.js';

/**
 * Content types goose writes that carry nothing for the log: its model's reasoning (`thinking`,
 * `redactedThinking`), and the approval prompts and elicitations it shows while a tool waits
 * (`toolConfirmationRequest`, `actionRequired`): the call and its result are what happened.
 * Names from `MessageContent` in goose's `crates/goose/src/conversation/message.rs`.
 */
const QUIET_CONTENT = new Set(['thinking', 'redactedThinking', 'toolConfirmationRequest', 'actionRequired']);

/**
 * Maps goose `Message`s, one at a time and in conversation order, into a `TranscriptBuilder`.
 * Shared by the SQLite store (a `messages` row's `content_json` and `metadata_json`) and the
 * legacy JSONL (a line is the whole message): both hold goose's serde form of `Message`
 * (`{id?, role, created, content: MessageContent[], metadata: {userVisible, agentVisible}}`).
 *
 * Each message maps to its own events and nothing later changes them (the prefix law). Turn ends:
 * goose records none, so a turn closes when the next prompt arrives (the last one stays open).
 */
export class GooseMessages {
  #titled = false;

  constructor(
    private readonly builder: TranscriptBuilder,
    private readonly sink: AttachmentSink,
    private readonly reports: FileReports,
    /** The route of the session's replies (`provider_name`, `model_config_json.model_name`). */
    private readonly route: Route | undefined,
    /** The name goose shows for the session, written after the first reply when it is not a default. */
    private readonly title: string | undefined,
  ) {}

  /** One message; `line` for reports (a JSONL line), null for a database row. */
  message(
    role: unknown,
    created: unknown,
    content: unknown,
    metadata: unknown,
    line: number | null,
    where: string,
  ): void {
    // `created` is Unix seconds (`Utc::now().timestamp()`); the log counts milliseconds.
    const time =
      typeof created === 'number' && Number.isFinite(created) ? Math.round(created * 1000) : undefined;
    if (time === undefined) {
      this.reports.skipRecord(line, `${where}: no created time`);
      return;
    }
    if (!Array.isArray(content)) {
      this.reports.skipRecord(line, `${where}: content is not a list`);
      return;
    }
    const meta = isRecord(metadata) ? metadata : {};
    // goose's `MessageMetadata`: absent fields default to visible.
    const userVisible = meta.userVisible !== false;
    if (role === 'user') this.#user(content, userVisible, time, line);
    else if (role === 'assistant') this.#assistant(content, userVisible, time, line);
    else this.reports.unknown(line, `message role "${String(role)}"`);
  }

  #user(content: readonly unknown[], userVisible: boolean, time: number, line: number | null): void {
    const b = this.builder;
    const typed: ContentBlock[] = [];
    for (const item of content) {
      if (!isRecord(item)) continue;
      const type = str(item.type) ?? '';
      // goose sends tool results back as a user message of `toolResponse` items.
      if (type === 'toolResponse') this.#toolResponse(item, time);
      else if (type === 'text') {
        const text = str(item.text) ?? '';
        if (text.length > 0) typed.push({ type: 'text', text });
      } else if (type === 'image') typed.push(this.#image(item));
      else this.#other(item, type, time, line);
    }
    if (typed.length === 0) return;
    // A message the person never saw (`userVisible: false`): goose wrote it for the model — a
    // compaction's summary, a continuation hint, a recipe's injected instructions.
    if (!userVisible) {
      b.note(toContent(typed), time);
      return;
    }
    b.prompt(toContent(typed), 'human', time, {
      titleText: typed.map((t) => (t.type === 'text' ? t.text : '')).join('\n'),
    });
  }

  #assistant(content: readonly unknown[], userVisible: boolean, time: number, line: number | null): void {
    const b = this.builder;
    const texts: ContentBlock[] = [];
    const calls: JsonRecord[] = [];
    for (const item of content) {
      if (!isRecord(item)) continue;
      const type = str(item.type) ?? '';
      if (type === 'text') {
        const text = str(item.text) ?? '';
        if (text.length > 0) texts.push({ type: 'text', text });
      } else if (type === 'image') texts.push(this.#image(item));
      // A frontend tool (one the desktop app runs) is called as any other.
      else if (type === 'toolRequest' || type === 'frontendToolRequest') calls.push(item);
      else if (type === 'toolResponse') this.#toolResponse(item, time);
      else this.#other(item, type, time, line);
    }
    if (texts.length === 0 && calls.length === 0) return;
    // An assistant message only the model saw (goose's continuation after a compaction): context
    // goose wrote, not a reply the person was shown.
    if (!userVisible && calls.length === 0) {
      b.note(toContent(texts), time);
      return;
    }
    if (this.route !== undefined) b.assistantRoute(this.route, time);
    for (const block of texts) b.assistantBlock(block, time);
    for (const call of calls) {
      const id = str(call.id) ?? '';
      const request = isRecord(call.toolCall) ? call.toolCall : {};
      const value = isRecord(request.value) ? request.value : {};
      // A call the model sent malformed (`status: "error"`) has no name; goose answers it with an
      // error `toolResponse` under the same id, which becomes its result.
      const name = request.status === 'success' ? (str(value.name) ?? 'unknown') : 'invalid_tool_call';
      const args =
        request.status === 'success' ? (value.arguments ?? {}) : { error: str(request.error) ?? '' };
      b.assistantToolCall(id, name, JSON.stringify(args), time);
    }
    b.flushAssistant();
    if (!this.#titled && this.title !== undefined) {
      // goose names the session from its first messages, after the first reply.
      this.#titled = true;
      b.explicitTitle(this.title, time);
    }
  }

  /**
   * `toolResponse.toolResult`: `{status: "success", value: CallToolResult}` (`{content, isError}`;
   * in older goose a bare `Content[]`) or `{status: "error", error}` (goose's
   * `tool_result_serde`).
   */
  #toolResponse(item: JsonRecord, time: number): void {
    const id = str(item.id) ?? '';
    const result = isRecord(item.toolResult) ? item.toolResult : {};
    if (result.status !== 'success') {
      this.builder.toolResult(id, str(result.error) ?? 'tool error', true, time);
      return;
    }
    const value = result.value;
    const items = Array.isArray(value)
      ? value
      : isRecord(value) && Array.isArray(value.content)
        ? value.content
        : [];
    const isError = isRecord(value) && value.isError === true;
    const blocks: ContentBlock[] = [];
    for (const c of items) {
      if (!isRecord(c)) continue;
      // MCP content: `audience: ["user"]` marks what goose shows the person only; the model got the rest.
      const annotations = isRecord(c.annotations) ? c.annotations : {};
      if (Array.isArray(annotations.audience) && !annotations.audience.includes('assistant')) continue;
      if (c.type === 'text') blocks.push({ type: 'text', text: str(c.text) ?? '' });
      else if (c.type === 'image') blocks.push(this.#image(c));
      else if (c.type === 'resource' && isRecord(c.resource)) {
        const r = c.resource;
        blocks.push({ type: 'text', text: str(r.text) ?? `[resource: ${str(r.uri) ?? ''}]` });
      } else blocks.push({ type: 'text', text: `[${String(c.type)} content]` });
    }
    this.builder.toolResult(id, toContent(blocks), isError, time);
  }

  #image(item: JsonRecord): ContentBlock {
    return this.sink.image(str(item.data) ?? '', str(item.mimeType) ?? 'application/octet-stream');
  }

  #other(item: JsonRecord, type: string, time: number, line: number | null): void {
    if (QUIET_CONTENT.has(type)) {
      this.reports.ignore(type);
      return;
    }
    if (type === 'systemNotification') {
      // `inlineMessage`: a line goose shows in the conversation (its compaction notice among
      // them); `thinkingMessage`: a transient spinner text.
      const msg = str(item.msg);
      if (item.notificationType === 'inlineMessage' && msg !== undefined && msg.length > 0)
        this.builder.note(msg, time);
      else this.reports.ignore('systemNotification thinkingMessage');
      return;
    }
    // Older goose wrote a `conversationCompacted` item where it compacted (goose now drops them
    // on reading, `deserialize_sanitized_content`): a marker where it happened.
    if (type === 'conversationCompacted') {
      this.builder.note('[conversation compacted]', time);
      return;
    }
    this.reports.unknown(line, `content type "${type}"`);
  }
}
