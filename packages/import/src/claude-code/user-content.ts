import type { AttachmentSink, ContentBlock } from '../mapping/attachments.js';
import { toContent } from '../mapping/attachments.js';
import { isRecord, str, type JsonRecord } from '../source/json-record.js';
import type { Content } from '../mapping/transcript-builder.js';

/** What a `user` line is, for the event mapping. */
export type UserLine =
  /** Something a person (or, in a subagent, the parent) typed: it starts a turn. */
  | { readonly kind: 'prompt'; readonly content: Content; readonly titleText: string | undefined }
  /** Injected text no one typed: hook feedback, prompt expansions, command output, compaction summaries. */
  | { readonly kind: 'system'; readonly content: Content }
  /** A slash command the person ran (`<command-name>/compact</command-name>`…): name without its slash. */
  | { readonly kind: 'command'; readonly name: string; readonly args: string | undefined }
  /** What a local command printed (`<local-command-stdout>`…), each non-empty stream in order. */
  | { readonly kind: 'command-output'; readonly outputs: readonly CommandOutput[] }
  /** "[Request interrupted by user]": the turn was aborted. */
  | { readonly kind: 'interrupt' }
  /** Tool results (and any text beside them), in block order. */
  | { readonly kind: 'results'; readonly items: readonly ResultItem[] };

export interface CommandOutput {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

export type ResultItem =
  | { readonly kind: 'result'; readonly callId: string; readonly content: Content; readonly isError: boolean }
  | { readonly kind: 'text'; readonly content: Content }
  | { readonly kind: 'interrupt' };

const INTERRUPT = '[Request interrupted by user';
const SYSTEM_PREFIXES = [
  '<local-command-stdout>',
  '<local-command-stderr>',
  '<local-command-caveat>',
  'Caveat:',
  '<bash-stdout>',
  '<bash-stderr>',
];

export function classifyUserLine(record: JsonRecord, sink: AttachmentSink): UserLine {
  const message = isRecord(record.message) ? record.message : {};
  const raw = message.content;
  if (Array.isArray(raw) && raw.some((b) => isRecord(b) && b.type === 'tool_result')) {
    const items: ResultItem[] = [];
    for (const block of raw) {
      if (!isRecord(block)) continue;
      if (block.type === 'tool_result') {
        items.push({
          kind: 'result',
          callId: str(block.tool_use_id) ?? '',
          content: resultContent(block.content, sink),
          isError: block.is_error === true,
        });
      } else {
        const blocks = contentBlocks([block], sink);
        const text = plainText(blocks);
        if (text.trimStart().startsWith(INTERRUPT)) items.push({ kind: 'interrupt' });
        else if (blocks.length > 0) items.push({ kind: 'text', content: toContent(blocks) });
      }
    }
    return { kind: 'results', items };
  }
  const blocks = contentBlocks(
    typeof raw === 'string' ? [{ type: 'text', text: raw }] : Array.isArray(raw) ? raw : [],
    sink,
  );
  const text = plainText(blocks);
  if (text.trimStart().startsWith(INTERRUPT) && blocks.every((b) => b.type === 'text'))
    return { kind: 'interrupt' };
  if (record.isCompactSummary !== true && blocks.every((b) => b.type === 'text')) {
    const command = commandOf(text) ?? commandOutputOf(text);
    if (command !== undefined) return command;
  }
  const content = toContent(blocks);
  const origin = isRecord(record.origin) ? str(record.origin.kind) : undefined;
  if (
    record.isMeta === true ||
    record.isCompactSummary === true ||
    origin !== undefined ||
    SYSTEM_PREFIXES.some((p) => text.trimStart().startsWith(p)) ||
    stripReminders(text).trim().length === 0
  ) {
    return { kind: 'system', content };
  }
  return { kind: 'prompt', content, titleText: promptTitleText(text) };
}

/** Claude content blocks as Strand blocks: text kept, images stored as attachments, the rest named. */
export function contentBlocks(raw: readonly unknown[], sink: AttachmentSink): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const block of raw) {
    if (typeof block === 'string') {
      out.push({ type: 'text', text: block });
      continue;
    }
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') out.push({ type: 'text', text: block.text });
    else if (block.type === 'image' && isRecord(block.source)) {
      const source = block.source;
      if (source.type === 'base64' && typeof source.data === 'string')
        out.push(sink.image(source.data, str(source.media_type) ?? 'application/octet-stream'));
      else out.push(sink.imageUrl(str(source.url) ?? 'unknown'));
    } else if (block.type === 'document') out.push({ type: 'text', text: '[document]' });
    else if (block.type === 'tool_reference')
      // What a tool search returns (2.1): the tools it found, by name.
      out.push({ type: 'text', text: `[tool reference: ${str(block.tool_name) ?? 'unknown'}]` });
    // A block kind this mapping does not know is kept as text rather than silently dropped.
    else out.push({ type: 'text', text: `[${str(block.type) ?? 'untyped'} block] ${preview(block)}` });
  }
  return out;
}

const PREVIEW_MAX = 500;

function preview(block: JsonRecord): string {
  const json = JSON.stringify(block);
  return json.length <= PREVIEW_MAX ? json : `${json.slice(0, PREVIEW_MAX)}…`;
}

/** A tool result's content: a string, or a block list (text and images). */
export function resultContent(raw: unknown, sink: AttachmentSink): Content {
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw)) return toContent(contentBlocks(raw, sink));
  if (raw === undefined || raw === null) return '';
  return JSON.stringify(raw);
}

function plainText(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

function stripReminders(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '');
}

/**
 * The text a title is made from: a slash command reads as `/name args` (not its XML wrapper),
 * system reminders are dropped.
 */
export function promptTitleText(text: string): string | undefined {
  const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(text)?.[1]?.trim();
  if (name !== undefined && name.length > 0) {
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? '';
    return args.length > 0 ? `${name} ${args}` : name;
  }
  const clean = stripReminders(text).trim();
  return clean.length > 0 ? clean : undefined;
}

const COMMAND_TAG = /<command-(message|name|args)>([\s\S]*?)<\/command-\1>/g;
const OUTPUT_TAG = /<local-command-(stdout|stderr)>([\s\S]*?)<\/local-command-\1>/g;

/**
 * A line that is only a slash command's wrapper (`<command-message>`, `<command-name>`,
 * `<command-args>`, in either order) as the command it is; undefined for anything else, so a
 * wrapper with other text beside it stays a prompt. `<command-message>` is left out: the harness
 * derives it from the name.
 */
function commandOf(text: string): UserLine | undefined {
  const tags = new Map<string, string>();
  const rest = text.replace(COMMAND_TAG, (_, tag: string, value: string) => {
    tags.set(tag, value.trim());
    return '';
  });
  const name = tags.get('name')?.replace(/^\//, '');
  if (name === undefined || name.length === 0 || rest.trim().length > 0) return undefined;
  const args = tags.get('args');
  return { kind: 'command', name, args: args === undefined || args.length === 0 ? undefined : args };
}

/** A line that is only local command output (stdout, stderr) as that output; empty streams dropped. */
function commandOutputOf(text: string): UserLine | undefined {
  const outputs: CommandOutput[] = [];
  const rest = text.replace(OUTPUT_TAG, (_, stream: 'stdout' | 'stderr', value: string) => {
    if (value.trim().length > 0) outputs.push({ stream, text: value });
    return '';
  });
  return rest.trim().length === 0 && rest.length < text.length
    ? { kind: 'command-output', outputs }
    : undefined;
}
