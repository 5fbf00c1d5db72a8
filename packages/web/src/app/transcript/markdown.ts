import DOMPurify from 'dompurify';
import { escapeHtml, markdownHtml } from '@strand/transcript';

/**
 * Message text as GitHub-flavoured markdown (tables, task lists, strikethrough, autolinks),
 * syntax-highlighted code blocks, then sanitized by DOMPurify: what reaches the DOM is never raw
 * model or person output. Raw HTML in a message is escaped, not interpreted.
 */
const toHtml = markdownHtml({ copyButton: true, links: 'live' });

const purify = typeof window === 'undefined' ? null : DOMPurify(window);
purify?.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

const cache = new Map<string, string>();
const CACHE_LIMIT = 2000;

/** Sanitized HTML for `text` (memoized: a long session re-renders the same messages). */
export function renderMarkdown(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const raw = toHtml(text);
  const html = purify === null ? escapeHtml(text) : purify.sanitize(raw, { ADD_ATTR: ['target'] });
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(text, html);
  return html;
}

/** Copies `text` to the clipboard; falls back to a selection copy where the API is refused. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}
