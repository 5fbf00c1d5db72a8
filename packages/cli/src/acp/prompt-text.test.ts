import { describe, expect, it } from 'vitest';
import { promptText } from './prompt-text.js';

describe('promptText (an ACP prompt → the text Strand prompts with)', () => {
  it('keeps text, links and embedded text resources; leaves images out', () => {
    expect(
      promptText([
        { type: 'text', text: 'look at' },
        { type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' },
        { type: 'resource', resource: { uri: 'file:///b.ts', text: 'const b = 1;' } },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ]),
    ).toBe('look at\n\nfile:///a.ts\n\nfile:///b.ts\nconst b = 1;');
  });
});
