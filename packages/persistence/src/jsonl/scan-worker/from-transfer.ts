import type { SessionEvent } from '@strand/session';
import { elidedEvent } from '../../scanned-log.js';
import { checkEnvelope } from '../event-lines.js';
import { decodeZstdHeader, type DecodedLog, type FrameLocation } from '../log-decoder.js';
import type { ScanTransfer } from './scan-file.js';

/**
 * The decoded log a scan transfer describes: the kept lines parsed and checked by the one
 * envelope check, the elided envelopes rebuilt in place (`data: null`), everything frozen.
 * Undefined when anything does not add up; the caller then reads the log itself.
 */
export function decodedFromTransfer(transfer: ScanTransfer, sessionId: string): DecodedLog | undefined {
  try {
    const head = decodeZstdHeader(Buffer.from(transfer.head), sessionId);
    if (head === 'short') return undefined;
    const parsed: unknown =
      transfer.kept === null ? [] : JSON.parse(Buffer.from(transfer.kept).toString('utf8'));
    if (!Array.isArray(parsed)) return undefined;
    const { slots, elidedTimes, elidedTypes, typeNames } = transfer;
    const events: SessionEvent[] = new Array<SessionEvent>(slots.length);
    let next = 0;
    for (let seq = 0; seq < slots.length; seq++) {
      const row = slots[seq]!;
      if (row < 0) {
        const event: unknown = parsed[next++];
        checkEnvelope(event, seq);
        events[seq] = event;
      } else {
        const type = typeNames[elidedTypes[row]!];
        if (type === undefined) return undefined;
        events[seq] = elidedEvent(type, seq, elidedTimes[row]!);
      }
    }
    if (next !== parsed.length) return undefined;
    const frames: FrameLocation[] = [];
    const f = transfer.frames;
    for (let i = 0; i + 2 < f.length; i += 3)
      frames.push({ firstSeq: f[i]!, count: f[i + 1]!, offset: f[i + 2]! });
    const last = frames.at(-1);
    const validEnd = Number(transfer.size);
    if ((last?.firstSeq ?? 0) + (last?.count ?? 0) !== slots.length) return undefined;
    return { record: head.record, events, frames, validEnd, nextSeq: slots.length, tornTail: false };
  } catch {
    // A header or line that does not hold up: the exact decoder will say what and where.
    return undefined;
  }
}
