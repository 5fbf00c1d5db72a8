import type { MessageContent } from '@strand/session';

/** The text of message content; an image block is named by its attachment ref. */
export function textOf(content: MessageContent): string {
  if (typeof content === 'string') return content;
  return content.map((block) => (block.type === 'text' ? block.text : `[image ${block.ref}]`)).join('\n');
}
