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

/**
 * Two turns in one model's words: a prompt, a reply with a call of `tool` (its `args` as text)
 * and its result, a last reply; then a prompt, a harness note, a call with arguments that are not
 * JSON, no result, and the turn aborted. Titled "Files".
 */
export function twoToolTurns(provider: string, model: string, tool: string, args: string): ExportDocument {
  return documentOf(
    [
      ['model/selection', { provider, model }],
      ['turn/start', {}],
      ['user/message', { content: 'List the files', author: 'human' }],
      ['step/start', {}],
      ['assistant/message', { content: 'Looking.' }],
      ['tool/call', { callId: 'c1', name: tool, arguments: args }],
      ['tool/result', { callId: 'c1', content: 'a.txt' }],
      ['step/end', {}],
      ['assistant/message', { content: 'One file: a.txt.' }],
      ['turn/end', { reason: 'completed' }],
      ['turn/start', {}],
      ['user/message', { content: 'Thanks', author: 'human' }],
      ['user/message', { content: 'a harness note', author: 'system' }],
      ['tool/call', { callId: 'c|2', name: tool, arguments: 'not json' }],
      ['turn/end', { reason: 'aborted' }],
    ],
    { title: 'Files' },
  );
}

/** A JSONL text's records. */
export const jsonLines = (text: string): Record<string, unknown>[] =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
