import {
  commandLine,
  plainTerminalText,
  readCoreEvent,
  type CoreEventDataMap,
  type MessageContent,
  type SessionEvent,
} from '@strand/session';
import type { ExportDocument } from './document.js';
import { exportTitle, sessionFacts } from './facts.js';
import { fenced, htmlText, inlineCode, utcMinute } from './markdown-text.js';

type ToolResult = CoreEventDataMap['tool/result'];

/**
 * A session as Markdown to paste into an issue, a chat or a document: a heading and a table of
 * facts, then a section per turn — the person's prompt and the model's reply as the Markdown they
 * already are, each tool call as a fenced block with its result folded into `<details>` under
 * it, harness commands with their output. What the format cannot hold is named in one line per
 * kind at the end (images are named, not embedded; Strand-only records are counted).
 *
 * Pure and deterministic: the same document gives the same bytes (times in UTC).
 */
export function renderMarkdown(document: ExportDocument): string {
  const results = resultsByCall(document.events);
  const shownResults = new Set<string>();
  const left = new LeftOut();
  const out: string[] = [...heading(document)];
  let turn = 0;

  for (const event of document.events) {
    const core = readCoreEvent(event);
    if (core === undefined) {
      left.count(`${inlineCode(event.type)} record`);
      continue;
    }
    switch (core.type) {
      case 'turn/start':
        turn++;
        out.push(`## Turn ${turn} · ${utcMinute(event.time)}`);
        break;
      case 'turn/end':
        if (core.data.reason !== 'completed')
          out.push(
            `_The turn ended: ${core.data.reason}${core.data.error === undefined ? '' : ` — ${core.data.error}`}._`,
          );
        break;
      case 'user/message':
        out.push(`**${speaker(core.data.author)}**`, content(core.data.content, left));
        break;
      case 'assistant/message': {
        const text = content(core.data.content, left);
        if (text.trim() !== '') out.push('**Assistant**', text);
        break;
      }
      case 'tool/call': {
        out.push(
          `**Tool call** · ${inlineCode(core.data.name)}`,
          fenced(callArguments(core.data.arguments), 'json'),
        );
        const result = results.get(core.data.callId);
        if (result !== undefined) {
          shownResults.add(core.data.callId);
          out.push(resultBlock(result, left));
        }
        break;
      }
      case 'tool/result':
        // Shown under its call; a result whose call is not in the log stands where it is.
        if (!shownResults.has(core.data.callId)) out.push(resultBlock(core.data, left));
        break;
      case 'session/command':
        out.push(`**Command** · ${inlineCode(commandLine(core.data))}`);
        break;
      case 'session/command-output':
        out.push(fenced(plainTerminalText(core.data.text), 'text'));
        break;
      case 'model/selection':
        out.push(`_Model: ${inlineCode(`${core.data.provider}/${core.data.model}`)}._`);
        break;
      case 'agent-preset/select':
        out.push(`_Agent preset: ${core.data.preset === null ? 'none' : inlineCode(core.data.preset)}._`);
        break;
      // Structure and bookkeeping the sections and the table above already say.
      case 'step/start':
      case 'step/end':
      case 'request/header':
      case 'session/title':
      case 'session/cost':
        break;
    }
  }
  const notes = left.lines();
  if (notes.length > 0) out.push('---', ...notes);
  return `${out.join('\n\n')}\n`;
}

function heading(document: ExportDocument): string[] {
  // A table cell ends at a pipe: escape it (code spans included, as GFM requires).
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  const rows = sessionFacts(document).map(
    ({ label, value, code }) => `| ${label} | ${cell(code ? inlineCode(value) : value)} |`,
  );
  return [`# ${exportTitle(document)}`, ['| | |', '|---|---|', ...rows].join('\n')];
}

function speaker(author: CoreEventDataMap['user/message']['author']): string {
  if (author === 'human') return 'You';
  if (author === 'agent') return 'Prompt from the parent agent';
  return 'System';
}

/** Message content as Markdown: its text as written (it is Markdown already), images named. */
function content(
  value: MessageContent,
  left: LeftOut,
  joiner = '\n\n',
  image = (ref: string) => `_[image ${ref}]_`,
): string {
  if (typeof value === 'string') return value;
  return value
    .map((block) => {
      if (block.type === 'text') return block.text;
      left.count('image');
      return image(block.ref);
    })
    .join(joiner);
}

function resultBlock(result: ToolResult, left: LeftOut): string {
  const failed =
    result.isError === true ? ` · failed${result.code === undefined ? '' : ` (${result.code})`}` : '';
  // Inside a fence Markdown is not read: an image is named in plain words.
  const text = content(result.content, left, '\n', (ref) => `[image ${ref}]`);
  return [
    '<details>',
    `<summary>Result${htmlText(failed)}</summary>`,
    '',
    fenced(plainTerminalText(text), 'text'),
    '',
    '</details>',
  ].join('\n');
}

/** Arguments as the model sent them, pretty-printed when they are JSON. */
function callArguments(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw) as unknown, null, 2);
  } catch {
    return raw;
  }
}

function resultsByCall(events: readonly SessionEvent[]): Map<string, ToolResult> {
  const results = new Map<string, ToolResult>();
  for (const event of events) {
    const core = readCoreEvent(event);
    if (core?.type === 'tool/result' && !results.has(core.data.callId))
      results.set(core.data.callId, core.data);
  }
  return results;
}

/** What the Markdown could not hold, counted per kind, said once at the end. */
class LeftOut {
  readonly #counts = new Map<string, number>();
  count(kind: string): void {
    this.#counts.set(kind, (this.#counts.get(kind) ?? 0) + 1);
  }
  lines(): string[] {
    return [...this.#counts].map(([kind, n]) =>
      kind === 'image'
        ? `_${n} image${n === 1 ? ' is' : 's are'} named by attachment, not embedded (the JSON export keeps their refs)._`
        : `_${n} ${kind}${n === 1 ? '' : 's'} not shown (Strand's own; the JSON export keeps ${n === 1 ? 'it' : 'them'})._`,
    );
  }
}
