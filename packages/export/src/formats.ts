import type { ExportFormatName } from '@strand/protocol';
import { turnRunning, type ExportDocument } from './document.js';
import { renderJson } from './json-format.js';
import { renderMarkdown } from './markdown-format.js';

/**
 * How each format `session.export` offers (`EXPORT_FORMATS` in `@strand/protocol`, the one list)
 * is rendered, with its media type and file extension (a download's name). Keyed by that list,
 * so a format named there without a renderer here does not compile.
 */
export const EXPORT_RENDERERS = {
  markdown: { mediaType: 'text/markdown; charset=utf-8', extension: 'md', render: renderMarkdown },
  json: { mediaType: 'application/json', extension: 'json', render: renderJson },
} as const satisfies Record<
  ExportFormatName,
  { mediaType: string; extension: string; render: (document: ExportDocument) => string }
>;

/**
 * The document in `format`: the text, with what a download needs to name and type it, and
 * whether a turn was still being written at the cut (the text says so too).
 */
export function renderExport(
  format: ExportFormatName,
  document: ExportDocument,
): { text: string; mediaType: string; fileName: string; running: boolean } {
  const { render, mediaType, extension } = EXPORT_RENDERERS[format];
  return {
    text: render(document),
    mediaType,
    fileName: exportFileName(document.header.id, extension),
    running: turnRunning(document),
  };
}

/**
 * A file name for the export: `strand-<id>.<extension>`, every character of the id outside
 * `[A-Za-z0-9.-]` written as its UTF-8 bytes `_xx` (so `_` itself is `_5f`): distinct ids give
 * distinct names, and none can name a folder or leave the one it is saved in.
 */
export function exportFileName(id: string, extension: string): string {
  const bytes = new TextEncoder();
  const safe = [...id]
    .map((ch) =>
      /^[A-Za-z0-9.-]$/.test(ch)
        ? ch
        : [...bytes.encode(ch)].map((b) => `_${b.toString(16).padStart(2, '0')}`).join(''),
    )
    .join('');
  return `strand-${safe}.${extension}`;
}
