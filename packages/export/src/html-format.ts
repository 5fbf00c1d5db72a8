import { messageText, plainTerminalText, commandLine, type MessageContent } from '@strand/session';
import {
  contentBlocks,
  escapeHtml,
  markdownHtml,
  transcriptRows,
  type ToolCallView,
  type TranscriptRow,
} from '@strand/transcript';
import { highlightCode } from '@strand/transcript/highlight';
import { CARRIED_IMAGE_TYPE, type ExportAttachment, type ExportDocument } from './document.js';
import { exportTitle, sessionFacts } from './facts.js';
import { HTML_EXPORT_STYLE } from './html-style.js';
import { utcMinute } from './markdown-text.js';
import { argumentsPreview, plainParagraphHtml } from './html-text.js';
import { TextChunks } from './text-chunks.js';

/** Message Markdown for a file: links in words, images named, no copy buttons (no scripts). */
const toHtml = markdownHtml({ copyButton: false, links: 'text', highlight: highlightCode });

/**
 * A session as one self-contained HTML file: the rows the web's transcript draws
 * (`@strand/transcript`), styles inlined, images as data URIs, highlighted code, tool calls as
 * `<details>` cards with their results; readable with scripts disabled (it has none) and pointing
 * at nothing on the network (links are shown as words). Pure and deterministic.
 */
export function renderHtml(document: ExportDocument): string {
  const times = new Map<number, number>(document.events.map((event) => [event.seq, event.time]));
  const attachments = document.attachments ?? new Map<string, ExportAttachment>();
  const content = (value: MessageContent): string => contentHtml(value, attachments);
  const body = new TextChunks('\n');
  let turn = 0;
  for (const row of transcriptRows(document.events)) {
    if (row.kind === 'turn-start') {
      turn++;
      const time = times.get(row.seq);
      body.push(
        `<h2 class="turn" id="turn-${turn}">Turn ${turn}${time === undefined ? '' : `<time>${utcMinute(time)}</time>`}</h2>`,
      );
    } else body.push(rowHtml(row, content));
  }
  const title = escapeHtml(exportTitle(document));
  const facts = sessionFacts(document)
    .map(
      ({ label, value, code }) =>
        `<tr><th>${label}</th><td>${code ? `<code>${escapeHtml(value)}</code>` : escapeHtml(value)}</td></tr>`,
    )
    .join('');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Nothing may load: no script, no network, even if some markup slipped through.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`,
    '<meta name="generator" content="Strand">',
    `<title>${title}</title>`,
    `<style>${HTML_EXPORT_STYLE}</style>`,
    '</head>',
    '<body>',
    `<header><h1>${title}</h1><table class="facts">${facts}</table></header>`,
    `<main>${body.join()}</main>`,
    `<footer>Exported from Strand.</footer>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function rowHtml(row: TranscriptRow, content: (value: MessageContent) => string): string {
  const id = `seq-${row.seq}`;
  switch (row.kind) {
    case 'user':
      return section(id, 'msg msg-user', escapeHtml(row.author.label), content(row.content));
    case 'assistant':
      return section(
        id,
        'msg msg-assistant',
        'Assistant',
        (row.content === undefined ? '' : content(row.content)) +
          row.calls.map((call) => toolCard(call, content)).join(''),
      );
    case 'tool-call':
      return `<div id="${id}">${toolCard(row.call, content)}</div>`;
    case 'tool-result':
      return `<div id="${id}">${resultBlock(row.result, content)}</div>`;
    case 'command':
      return `<div class="command" id="${id}"><p class="quiet">Command run in the harness: <code class="line">${escapeHtml(commandLine(row.command))}</code></p>${row.outputs.map((output) => terminal(output.data.text)).join('')}</div>`;
    case 'command-output':
      return `<div id="${id}">${terminal(row.output.data.text)}</div>`;
    case 'quiet':
      return `<p class="quiet" id="${id}">${escapeHtml(row.text)}</p>`;
    case 'turn-end':
      return row.reason === 'completed'
        ? ''
        : `<p class="turn-end" id="${id}">The turn ended: ${escapeHtml(row.reason)}${row.error === undefined ? '' : ` — ${escapeHtml(row.error)}`}</p>`;
    case 'identity':
      return `<p class="quiet" id="${id}">This session is a subagent: its identity record.</p>`;
    case 'unknown':
      return `<details class="unknown" id="${id}"><summary><code>${escapeHtml(row.type)}</code></summary><div class="tool-body"><pre>${escapeHtml(JSON.stringify(row.data, null, 2) ?? 'null')}</pre></div></details>`;
    case 'turn-start':
      return '';
  }
}

function section(id: string, className: string, who: string, inner: string): string {
  return `<section class="${className}" id="${id}"><div class="who">${who}</div><div class="body">${inner}</div></section>`;
}

function toolCard(call: ToolCallView, content: (value: MessageContent) => string): string {
  const failed = call.result?.data.isError === true ? '<span class="failed">failed</span>' : '';
  const preview = argumentsPreview(call.args, 120);
  return [
    '<details class="tool">',
    `<summary><span class="tool-name">${escapeHtml(call.name)}</span><span class="tool-args">${escapeHtml(preview)}</span>${failed}</summary>`,
    '<div class="tool-body">',
    `<div class="label">Arguments</div><pre>${escapeHtml(prettyArguments(call.args))}</pre>`,
    call.result === undefined ? '<div class="label">No result</div>' : resultBlock(call.result.data, content),
    '</div>',
    '</details>',
  ].join('');
}

function resultBlock(
  result: { readonly content: MessageContent; readonly isError?: boolean; readonly code?: string },
  content: (value: MessageContent) => string,
): string {
  const label =
    result.isError === true
      ? `Result — failed${result.code === undefined ? '' : ` (${escapeHtml(result.code)})`}`
      : 'Result';
  const images = contentBlocks(result.content).some((block) => block.type === 'image');
  const text = plainTerminalText(messageText(result.content, 'left out'));
  return `<div class="label">${label}</div>${text === '' ? '' : `<pre>${escapeHtml(text)}</pre>`}${images ? onlyImages(result.content, content) : ''}`;
}

function onlyImages(value: MessageContent, content: (value: MessageContent) => string): string {
  return content(contentBlocks(value).filter((block) => block.type === 'image'));
}

function terminal(text: string): string {
  return `<pre class="terminal">${escapeHtml(plainTerminalText(text))}</pre>`;
}

function contentHtml(value: MessageContent, attachments: ReadonlyMap<string, ExportAttachment>): string {
  return contentBlocks(value)
    .map((block) => {
      if (block.type === 'text') return plainParagraphHtml(block.text) ?? toHtml(block.text);
      const image = attachments.get(block.ref);
      return image !== undefined &&
        CARRIED_IMAGE_TYPE.test(image.mediaType) &&
        /^[A-Za-z0-9+/=]*$/.test(image.base64)
        ? `<p><img alt="image ${escapeHtml(block.ref)}" src="data:${image.mediaType};base64,${image.base64}"></p>`
        : `<p class="image-ref">[image ${escapeHtml(block.ref)}]</p>`;
    })
    .join('');
}

function prettyArguments(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw) as unknown, null, 2);
  } catch {
    return raw;
  }
}
