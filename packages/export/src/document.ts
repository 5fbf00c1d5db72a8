import { readCoreEvent, type SessionEvent, type SessionHeader } from '@strand/session';

/**
 * What every export format renders from: one session at one durable cut. The host (or a test)
 * reads it once — an observation of the whole log, its projections at that cut — and hands it
 * here; the formats are pure functions of it, so the same cut always gives the same bytes.
 */
export interface ExportDocument {
  readonly header: SessionHeader;
  /** The whole log up to the cut: contiguous from seq 0, in seq order. */
  readonly events: readonly SessionEvent[];
  /** The `title` unit's value at the cut (the one rule for a session's title); absent: none yet. */
  readonly title?: string;
  /**
   * The image attachments the log references, by ref, for formats that carry images (HTML embeds
   * them as data URIs, the harness transcripts write them as the harness's own image records); a
   * ref missing here is named instead.
   */
  readonly attachments?: ReadonlyMap<string, ExportAttachment>;
}

/**
 * Image types an export carries as an image: what HTML embeds and every harness target accepts
 * (never SVG: an image that can carry markup).
 */
export const CARRIED_IMAGE_TYPE = /^image\/(png|jpeg|gif|webp)$/;

export interface ExportAttachment {
  readonly mediaType: string;
  readonly base64: string;
}

/** Every attachment ref the log's messages and results name, in log order, each once. */
export function attachmentRefs(events: readonly SessionEvent[]): string[] {
  const refs = new Set<string>();
  for (const event of events) {
    const core = readCoreEvent(event);
    const content =
      core?.type === 'user/message' || core?.type === 'assistant/message' || core?.type === 'tool/result'
        ? core.data.content
        : undefined;
    if (content === undefined || typeof content === 'string') continue;
    for (const block of content) if (block.type === 'image') refs.add(block.ref);
  }
  return [...refs];
}

/** The cut an export holds, as the formats state it: the last seq, or −1 for an empty log. */
export function lastSeqOf(document: ExportDocument): number {
  return document.events.length === 0 ? -1 : document.events[document.events.length - 1]!.seq;
}

/**
 * A turn was in progress at the cut (a `turn/start` after the last `turn/end`): the export holds
 * what was durable then, and says so. A log cut by a crash is closed by repair before it is read,
 * so an open turn here is one still being written.
 */
export function turnRunning(document: ExportDocument): boolean {
  for (let i = document.events.length - 1; i >= 0; i--) {
    const type = readCoreEvent(document.events[i]!)?.type;
    if (type === 'turn/end') return false;
    if (type === 'turn/start') return true;
  }
  return false;
}
