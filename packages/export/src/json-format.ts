import { defined } from '@strand/session';
import { lastSeqOf, turnRunning, type ExportDocument } from './document.js';

/** The `format` tag of Strand's own JSON export; a reader checks it before trusting the rest. */
export const STRAND_EXPORT_JSON_FORMAT = 'strand.session-export';
export const STRAND_EXPORT_JSON_VERSION = 1;

/**
 * Strand's own format: the header and every event exactly as the log holds them (the envelope
 * `{seq, type, time, data}`), plus the cut they end at. Lossless — any harness's session, any
 * event type Strand does not know — so it is the one export another Strand can read back whole.
 */
export function renderJson(document: ExportDocument): string {
  return `${JSON.stringify({
    format: STRAND_EXPORT_JSON_FORMAT,
    version: STRAND_EXPORT_JSON_VERSION,
    header: document.header,
    ...defined({ title: document.title }),
    cut: { lastSeq: lastSeqOf(document), running: turnRunning(document) },
    events: document.events,
  })}\n`;
}

/**
 * The document a `renderJson` text holds, read back (the CLI's `--to` writes a harness's file
 * from the host's JSON export); undefined for a text that is not Strand's JSON export, version 1.
 * The host wrote it, so the header and events are taken as the log held them.
 */
export function readJsonExport(text: string): ExportDocument | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const record = value as Partial<
    Record<'format' | 'version' | 'header' | 'title' | 'events', unknown>
  > | null;
  if (
    record?.format !== STRAND_EXPORT_JSON_FORMAT ||
    record.version !== STRAND_EXPORT_JSON_VERSION ||
    typeof record.header !== 'object' ||
    record.header === null ||
    !Array.isArray(record.events)
  )
    return undefined;
  return {
    header: record.header as ExportDocument['header'],
    events: record.events as ExportDocument['events'],
    ...(typeof record.title === 'string' ? { title: record.title } : {}),
  };
}
