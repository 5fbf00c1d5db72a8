import { commandLine, messageText, plainTerminalText, readCoreEvent } from '@strand/session';

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

/**
 * One line of what an event says: its text, a tool call, a title, a turn's end, a command and its
 * output; other events none. Terminal escapes in it are removed: this goes to a terminal, where
 * a logged escape would recolour or move the table.
 */
export function eventText(event: { type: string; data: unknown }): string {
  return oneLine(plainTerminalText(eventLine(event)), 100);
}

function eventLine(event: { type: string; data: unknown }): string {
  const core = readCoreEvent(event);
  switch (core?.type) {
    case 'user/message':
    case 'assistant/message':
    case 'tool/result':
      return messageText(core.data.content);
    case 'tool/call':
      return `${core.data.name} ${core.data.arguments}`;
    case 'session/title':
      return core.data.title;
    case 'turn/end':
      return core.data.reason;
    case 'session/command':
      return commandLine(core.data);
    case 'session/command-output':
      return core.data.text;
    default:
      return '';
  }
}
