import { describe, expect, it } from 'vitest';
import { eventText } from './output.js';

describe('eventText', () => {
  it('shows a command as typed and its output, without the escapes a terminal would obey', () => {
    expect(eventText({ type: 'session/command', data: { name: 'compact' } })).toBe('/compact');
    expect(eventText({ type: 'session/command', data: { name: 'model', args: 'opus' } })).toBe('/model opus');
    expect(
      eventText({
        type: 'session/command-output',
        data: { text: '\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m', stream: 'stdout' },
      }),
    ).toBe('Compacted (ctrl+o to see full summary)');
    expect(
      eventText({
        type: 'tool/result',
        data: { callId: 'c', content: '\u001b[31mFAIL\u001b[39m a.test.ts' },
      }),
    ).toBe('FAIL a.test.ts');
  });
});
