import { describe, expect, it } from 'vitest';
import { titleFromPrompt } from './title.js';

describe('titleFromPrompt', () => {
  it('takes the first non-empty line with whitespace collapsed', () => {
    expect(titleFromPrompt('\n\n  Fix   the\tbuild  \nthen deploy')).toBe('Fix the build');
  });

  it('cuts a long line at a word boundary near 60 characters', () => {
    const title = titleFromPrompt(
      'Please rewrite the persistence layer so that every append is durable before it resolves',
    );
    expect(title).toBe('Please rewrite the persistence layer so that every append…');
    expect([...title!].length).toBeLessThanOrEqual(60);
  });

  it('reads text blocks and gives nothing for an image-only prompt', () => {
    expect(
      titleFromPrompt([
        { type: 'image', ref: 'a' },
        { type: 'text', text: 'Describe this' },
      ]),
    ).toBe('Describe this');
    expect(titleFromPrompt([{ type: 'image', ref: 'a' }])).toBeUndefined();
    expect(titleFromPrompt('   ')).toBeUndefined();
  });
});
