import { describe, expect, it } from 'vitest';
import { plainTerminalText } from './terminal-text.js';

describe('plainTerminalText', () => {
  it('removes colour, style and cursor escapes and keeps the text', () => {
    expect(plainTerminalText('\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m')).toBe(
      'Compacted (ctrl+o to see full summary)',
    );
    expect(plainTerminalText('\u001b[1;31mFAIL\u001b[0m a.test.ts\u001b[2K\u001b[1G')).toBe('FAIL a.test.ts');
    expect(plainTerminalText('no escapes [2m here')).toBe('no escapes [2m here');
  });
});
