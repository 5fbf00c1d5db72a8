import { newSessionHeader, SessionId, SessionSeq, type SessionEvent, defined } from '@strand/session';
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
    ...defined({ title: extra.title }),
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

/** A 1×1 PNG, base64. */
export const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * One turn with images: a prompt of text, a stored PNG, an image whose bytes are not stored and
 * an SVG (no target takes one), more text; a call whose result is text and the PNG; a last reply.
 */
export function imageTurn(): ExportDocument {
  const document = documentOf([
    ['model/selection', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['turn/start', {}],
    [
      'user/message',
      {
        content: [
          { type: 'text', text: 'What is in' },
          { type: 'image', ref: 'png-1' },
          { type: 'image', ref: 'gone' },
          { type: 'image', ref: 'svg-1' },
          { type: 'text', text: 'these?' },
        ],
        author: 'human',
      },
    ],
    ['step/start', {}],
    ['tool/call', { callId: 'c1', name: 'Read', arguments: '{"path":"shot.png"}' }],
    [
      'tool/result',
      {
        callId: 'c1',
        content: [
          { type: 'text', text: 'shot.png' },
          { type: 'image', ref: 'png-1' },
        ],
      },
    ],
    ['step/end', {}],
    ['assistant/message', { content: 'A dot.' }],
    ['turn/end', { reason: 'completed' }],
  ]);
  return {
    ...document,
    attachments: new Map([
      ['png-1', { mediaType: 'image/png', base64: PNG_1PX }],
      ['svg-1', { mediaType: 'image/svg+xml', base64: btoa('<svg/>') }],
    ]),
  };
}
