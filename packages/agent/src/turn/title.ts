import { messageText, type MessageContent } from '@strand/session';

const MAX_TITLE = 60;

/**
 * A title from a prompt: its first non-empty line, whitespace collapsed, cut at a word boundary
 * near 60 characters. Images do not name a session: `undefined` when the prompt has no text.
 */
export function titleFromPrompt(content: MessageContent): string | undefined {
  const line = messageText(content, 'left out')
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .find((l) => l.length > 0);
  if (line === undefined) return undefined;
  const chars = [...line];
  if (chars.length <= MAX_TITLE) return line;
  const cut = chars.slice(0, MAX_TITLE - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space >= MAX_TITLE / 2 ? cut.slice(0, space) : cut}…`;
}
