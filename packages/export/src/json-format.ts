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
    ...(document.title === undefined ? {} : { title: document.title }),
    cut: { lastSeq: lastSeqOf(document), running: turnRunning(document) },
    events: document.events,
  })}\n`;
}
