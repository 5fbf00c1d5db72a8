import type { ExportFormatName } from '@strand/protocol';
import { attachmentRefs, turnRunning, type ExportAttachment, type ExportDocument } from './document.js';
import { renderHtml } from './html-format.js';
import { renderJson } from './json-format.js';
import { renderMarkdown } from './markdown-format.js';

/**
 * How each format `session.export` offers (`EXPORT_FORMATS` in `@strand/protocol`, the one list)
 * is rendered, with its media type and file extension (a download's name). Keyed by that list,
 * so a format named there without a renderer here does not compile.
 */
export const EXPORT_RENDERERS = {
  markdown: {
    mediaType: 'text/markdown; charset=utf-8',
    extension: 'md',
    render: renderMarkdown,
    images: false,
  },
  // The one format that carries images: their bytes are read before it renders.
  html: { mediaType: 'text/html; charset=utf-8', extension: 'html', render: renderHtml, images: true },
  json: { mediaType: 'application/json', extension: 'json', render: renderJson, images: false },
} as const satisfies Record<
  ExportFormatName,
  { mediaType: string; extension: string; render: (document: ExportDocument) => string; images: boolean }
>;

/** Reads one attachment's bytes (the host's persistence); undefined: not stored, named instead. */
export type AttachmentReader = (ref: string) => Promise<ExportAttachment | undefined>;

/**
 * The document in `format`: the text, with what a download needs to name and type it, and
 * whether a turn was still being written at the cut (the text says so too).
 */
export async function renderExport(
  format: ExportFormatName,
  document: ExportDocument,
  readAttachment?: AttachmentReader,
): Promise<{ text: string; mediaType: string; fileName: string; running: boolean }> {
  const { render, mediaType, extension, images } = EXPORT_RENDERERS[format];
  const withImages =
    images && readAttachment !== undefined ? await withAttachments(document, readAttachment) : document;
  return {
    text: render(withImages),
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

/**
 * The document with the bytes of every image its log references (for HTML and the harness
 * transcripts, the formats that carry images), read one at a time (a session holds few); one
 * that already holds its attachments is returned as it is. A ref `read` finds nothing for is
 * left out of the map: the formats name that image instead.
 */
export async function withAttachments(
  document: ExportDocument,
  read: AttachmentReader,
): Promise<ExportDocument> {
  if (document.attachments !== undefined) return document;
  const found = new Map<string, ExportAttachment>();
  for (const ref of attachmentRefs(document.events)) {
    const attachment = await read(ref);
    if (attachment !== undefined) found.set(ref, attachment);
  }
  return { ...document, attachments: found };
}
