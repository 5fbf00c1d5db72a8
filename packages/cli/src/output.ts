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

/** One line of what an event says: its text, a tool call, a title, a turn's end. */
export function eventText(event: { type: string; data: unknown }): string {
  const data = event.data as Record<string, unknown> | null;
  const content = data?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((b: { text?: string }) => b.text ?? '[image]').join(' ')
        : '';
  const extra =
    event.type === 'tool/call'
      ? `${String(data?.name)} ${String(data?.arguments)}`
      : event.type === 'session/title'
        ? String(data?.title)
        : event.type === 'turn/end'
          ? String(data?.reason)
          : text;
  return oneLine(extra, 100);
}
