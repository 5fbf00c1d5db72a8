import DOMPurify from 'dompurify';
import { escapeHtml, markdownHtml, type CodeHighlighter } from '@strand/transcript';

/*
 * highlight.js (its common languages, about 150 KB) is a chunk of its own, not in the script the
 * first screen waits for: it is loaded the first time a message shows a fenced block with a
 * language. Until it arrives such a block is plain text; then every `Markdown` renders again
 * (`useHighlighterVersion`) and the block gains its colours — colours only, so nothing moves.
 */
let highlighter: CodeHighlighter | null = null;
let loading = false;
let version = 0;
/** Set while `toHtml` runs when a block could not be highlighted yet: its HTML is not kept. */
let missed = false;
const listeners = new Set<() => void>();

function loadHighlighter(): void {
  if (loading) return;
  loading = true;
  import('@strand/transcript/highlight').then(
    ({ highlightCode }) => {
      highlighter = highlightCode;
      version++;
      for (const listener of [...listeners]) listener();
    },
    // A chunk that cannot load (the host was updated under an open page): code stays plain text.
    (error: unknown) => console.error('strand web: highlight.js did not load', error),
  );
}

const highlight: CodeHighlighter = (code, language) => {
  if (highlighter !== null) return highlighter(code, language);
  missed = true;
  loadHighlighter();
  return undefined;
};

/** Moves once, when highlight.js has loaded: what a `Markdown` re-renders on. */
export function subscribeHighlighter(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export function highlighterVersion(): number {
  return version;
}

/**
 * Message text as GitHub-flavoured markdown (tables, task lists, strikethrough, autolinks),
 * syntax-highlighted code blocks, then sanitized by DOMPurify: what reaches the DOM is never raw
 * model or person output. Raw HTML in a message is escaped, not interpreted.
 */
const toHtml = markdownHtml({ copyButton: true, links: 'live', highlight });

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
  missed = false;
  const raw = toHtml(text);
  const html = purify === null ? escapeHtml(text) : purify.sanitize(raw, { ADD_ATTR: ['target'] });
  // Kept only when final: a block drawn before highlight.js arrived is drawn again after.
  if (missed) return html;
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
