import { newSessionHeader, SessionId, SessionSeq, type SessionEvent } from '@strand/session';
import type { ExportDocument } from './document.js';

/** A document from `[type, data]` pairs: seqs from 0, one minute apart from a fixed time. */
export function documentOf(
  entries: readonly (readonly [string, unknown])[],
  extra: Partial<Omit<ExportDocument, 'events'>> = {},
): ExportDocument {
  const start = Date.UTC(2026, 11, 5, 9, 30);
  const events: SessionEvent[] = entries.map(([type, data], i) => ({
    type,
    seq: SessionSeq(i),
    time: start + i * 60_000,
    data: data as SessionEvent['data'],
  }));
  return {
    header:
      extra.header ??
      newSessionHeader({ id: SessionId('s-export-1'), createdAt: start, cwd: '/home/ana/shop' }),
    events,
    ...(extra.title === undefined ? {} : { title: extra.title }),
  };
}
