import { describe, expect, it } from 'vitest';
import { LineSplitter, type SourceLine } from './line-reader.js';

function split(chunks: string[]): SourceLine[] {
  const splitter = new LineSplitter();
  const out: SourceLine[] = [];
  for (const chunk of chunks) out.push(...splitter.push(Buffer.from(chunk, 'utf8')));
  const last = splitter.finish();
  if (last !== undefined) out.push(last);
  return out;
}

describe('LineSplitter', () => {
  it('splits lines across chunk boundaries, including multi-byte characters cut in half', () => {
    const text = 'first →\nsecond line\r\nthird';
    const bytes = Buffer.from(text, 'utf8');
    for (let cut = 1; cut < bytes.length; cut++) {
      const splitter = new LineSplitter();
      const lines = [...splitter.push(bytes.subarray(0, cut)), ...splitter.push(bytes.subarray(cut))];
      const last = splitter.finish();
      expect([...lines, last].map((l) => l?.text)).toEqual(['first →', 'second line', 'third']);
    }
  });

  it('numbers lines and marks only an unterminated last line', () => {
    expect(split(['a\n', '\nb\n'])).toEqual([
      { text: 'a', line: 1, terminated: true },
      { text: '', line: 2, terminated: true },
      { text: 'b', line: 3, terminated: true },
    ]);
    expect(split(['a\nb']).at(-1)).toEqual({ text: 'b', line: 2, terminated: false });
  });
});
