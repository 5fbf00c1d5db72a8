import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LineSplitter, SourceLineReader, type SourceLine } from './line-reader.js';

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

  it('gives the same lines decoding lazily as eagerly, over any chunking (a peek reads lazily)', () => {
    const input = fc.record({
      text: fc.string({ unit: 'binary', maxLength: 200 }),
      cuts: fc.array(fc.nat(), { maxLength: 6 }),
    });
    fc.assert(
      fc.property(input, ({ text, cuts }) => {
        const bytes = Buffer.from(text, 'utf8');
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((from, i) => bytes.subarray(from, [...at, bytes.length][i]));
        const eager = new LineSplitter();
        const lazy = new LineSplitter();
        const byEager = chunks.flatMap((chunk) => eager.push(chunk));
        const byLazy = chunks.flatMap((chunk) => [...lazy.pushLazily(chunk)]);
        expect(byLazy).toEqual(byEager);
        expect(lazy.finish()).toEqual(eager.finish());
      }),
      { numRuns: 200 },
    );
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

describe('SourceLineReader', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'strand-line-reader-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the same lines and digest chunk by chunk as line by line, files past one read chunk included', async () => {
    // Short lines of any text; in some files after a line longer than the megabyte a read
    // returns at most, so lines span read chunks.
    const file = fc.record({
      lines: fc.array(
        fc.string({ maxLength: 40 }).filter((l) => !l.includes('\n')),
        { maxLength: 30 },
      ),
      long: fc.constantFrom(false, false, true),
      newlineAtEnd: fc.boolean(),
      crlf: fc.boolean(),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(file, async ({ lines, long, newlineAtEnd, crlf }) => {
        const text = lines.join(crlf ? '\r\n' : '\n');
        const body = long ? `${'x'.repeat(1_100_000)}\n${text}\n${'y'.repeat(1_000_000)}\n${text}` : text;
        const name = path.join(dir, `f-${n++}`);
        writeFileSync(name, newlineAtEnd && body.length > 0 ? body + '\n' : body);
        const one = new SourceLineReader(name, false);
        const byLine: SourceLine[] = [];
        for await (const line of one.lines()) byLine.push(line);
        const chunked = new SourceLineReader(name, false);
        const byChunk: SourceLine[] = [];
        for await (const chunk of chunked.chunkLines()) byChunk.push(...chunk);
        expect(byChunk).toEqual(byLine);
        expect(byChunk).toEqual(split([readFileSync(name, 'utf8')]));
        expect(chunked.end).toEqual(one.end);
      }),
      { numRuns: 20 },
    );
  });

  it('gives the same lines and digest whatever the bytes read at a time (a peek reads less)', async () => {
    const file = fc.record({
      text: fc.string({ unit: 'binary', maxLength: 300 }),
      chunkBytes: fc.integer({ min: 1, max: 64 }),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(file, async ({ text, chunkBytes }) => {
        const name = path.join(dir, `c-${n++}`);
        writeFileSync(name, text);
        const whole = new SourceLineReader(name, false);
        const byDefault: SourceLine[] = [];
        for await (const line of whole.lines()) byDefault.push(line);
        const small = new SourceLineReader(name, false, chunkBytes);
        const bySmall: SourceLine[] = [];
        for await (const line of small.lines()) bySmall.push(line);
        expect(bySmall).toEqual(byDefault);
        expect(small.end).toEqual(whole.end);
      }),
      { numRuns: 40 },
    );
  });

  it('reads a plain file as it stood when opened: bytes appended meanwhile wait for the next read, a cut ends it', async () => {
    const text = 'one\ntwo\nthree\n';
    // Appended after the first chunk was read: not part of this read (nor of its digest).
    const grown = path.join(dir, 'grown');
    writeFileSync(grown, text);
    const reader = new SourceLineReader(grown, false, 4);
    const lines: string[] = [];
    for await (const chunk of reader.chunkLines()) {
      if (lines.length === 0) appendFileSync(grown, 'four\n');
      lines.push(...[...chunk].map((l) => l.text));
    }
    expect(lines).toEqual(['one', 'two', 'three']);
    expect(reader.end).toEqual({
      hash: createHash('sha1').update(text).digest('hex'),
      bytes: text.length,
      zstd: 'ok',
    });
    // Cut short after the first chunk: the read ends where the file now ends, the torn line last.
    const cut = path.join(dir, 'cut');
    writeFileSync(cut, text);
    const shortened = new SourceLineReader(cut, false, 6);
    const seen: { text: string; terminated: boolean }[] = [];
    for await (const chunk of shortened.chunkLines()) {
      if (seen.length === 0) truncateSync(cut, 6);
      seen.push(...[...chunk].map(({ text: t, terminated }) => ({ text: t, terminated })));
    }
    expect(seen).toEqual([
      { text: 'one', terminated: true },
      { text: 'tw', terminated: false },
    ]);
    expect(shortened.end?.bytes).toBe(6);
  });
});
