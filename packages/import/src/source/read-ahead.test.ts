import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readAhead } from './read-ahead.js';

const dir = mkdtempSync(path.join(tmpdir(), 'strand-read-ahead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readAhead', () => {
  it('yields every file in the order given, whatever the window, a missing one as an error in its place', async () => {
    // Each file is present (its content names it) or absent; the window is smaller, equal or larger.
    const plan = fc.record({
      present: fc.array(fc.boolean(), { maxLength: 40 }),
      window: fc.integer({ min: 1, max: 50 }),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(plan, async ({ present, window }) => {
        run++;
        const files = present.map((here, i) => {
          const file = path.join(dir, `${run}-${i}.json`);
          if (here) writeFileSync(file, `{"n":${i}}`);
          return file;
        });
        const reads = [];
        for await (const read of readAhead(files, window)) reads.push(read);
        expect(reads.map((r) => r.file)).toEqual(files);
        reads.forEach((read, i) => {
          if (present[i]) expect('bytes' in read && read.bytes.toString()).toBe(`{"n":${i}}`);
          else expect('error' in read && (read.error as NodeJS.ErrnoException).code).toBe('ENOENT');
        });
      }),
      { numRuns: 60 },
    );
  });
});
