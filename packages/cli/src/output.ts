import { messageText, readCoreEvent } from '@strand/session';

/** Small text helpers for command output. */
// eslint-disable-next-line no-control-regex -- the host marks matches with U+0002 … U+0003
export const HIGHLIGHT = /\u0002([^\u0003]*)\u0003/g;

export function highlight(snippet: string, tty: boolean): string {
  return snippet.replace(HIGHLIGHT, (_m, text: string) => (tty ? `\u001b[1m${text}\u001b[22m` : `[${text}]`));
}

export function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

/** One line of what an event says: its text, a tool call, a title, a turn's end; other events none. */
export function eventText(event: { type: string; data: unknown }): string {
  const core = readCoreEvent(event);
  switch (core?.type) {
    case 'user/message':
    case 'assistant/message':
    case 'tool/result':
      return oneLine(messageText(core.data.content), 100);
    case 'tool/call':
      return oneLine(`${core.data.name} ${core.data.arguments}`, 100);
    case 'session/title':
      return oneLine(core.data.title, 100);
    case 'turn/end':
      return core.data.reason;
    default:
      return '';
  }
}
