import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boundSnippet,
  HIGHLIGHT_END,
  HIGHLIGHT_START,
  sanitizeIndexedText,
  SNIPPET_MAX_CHARS,
} from './snippet.js';

const balanced = (text: string): boolean => {
  let open = false;
  for (const ch of text) {
    if (ch === HIGHLIGHT_START) {
      if (open) return false;
      open = true;
    } else if (ch === HIGHLIGHT_END) {
      if (!open) return false;
      open = false;
    }
  }
  return !open;
};

/** FTS5-like snippets: text pieces with well-formed highlights, occasionally huge. */
const snippets = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }).map((s) => sanitizeIndexedText(s)),
      fc
        .string({ minLength: 1, maxLength: 400 })
        .map((s) => `${HIGHLIGHT_START}${sanitizeIndexedText(s)}${HIGHLIGHT_END}`),
    ),
    { maxLength: 20 },
  )
  .map((parts) => parts.join(' '));

describe('boundSnippet', () => {
  it('returns short snippets unchanged', () => {
    expect(boundSnippet(`a ${HIGHLIGHT_START}b${HIGHLIGHT_END} c`)).toBe(
      `a ${HIGHLIGHT_START}b${HIGHLIGHT_END} c`,
    );
  });

  it('bound_is_respected_and_markers_stay_balanced', () => {
    fc.assert(
      fc.property(snippets, (raw) => {
        const out = boundSnippet(raw);
        expect(out.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
        expect(balanced(out)).toBe(true);
        if (raw.includes(HIGHLIGHT_START)) expect(out).toContain(HIGHLIGHT_START);
      }),
    );
  });

  it('keeps the first highlight with context and never splits a surrogate pair', () => {
    const raw = `${'😀'.repeat(200)} ${HIGHLIGHT_START}match${HIGHLIGHT_END} ${'😀'.repeat(200)}`;
    const out = boundSnippet(raw);
    expect(out).toContain(`${HIGHLIGHT_START}match${HIGHLIGHT_END}`);
    expect(out.startsWith('…😀')).toBe(true);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(out)).toBe(false);
  });
});

describe('sanitizeIndexedText', () => {
  it('replaces marker characters and NUL, nothing else', () => {
    expect(sanitizeIndexedText('a\u0002b\u0003c\u0000d\u0001')).toBe('a\uFFFDb\uFFFDc\uFFFDd\u0001');
  });
});
