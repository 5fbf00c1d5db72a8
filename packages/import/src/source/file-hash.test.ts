import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { hashBytes, hashFile } from './file-hash.js';

const dir = mkdtempSync(path.join(tmpdir(), 'strand-file-hash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MB = 1 << 20;

describe('hashFile', () => {
  it('gives the digest of the bytes, for small files and files of several read chunks', async () => {
    // Sizes around the one-megabyte read chunk, and small ones of any length.
    const size = fc.oneof(
      fc.integer({ min: 0, max: 4096 }),
      fc.constantFrom(MB - 1, MB, MB + 1, 2 * MB + MB / 2),
    );
    await fc.assert(
      fc.asyncProperty(size, fc.integer({ min: 0, max: 255 }), async (n, seed) => {
        const bytes = Buffer.alloc(n);
        for (let i = 0; i < n; i++) bytes[i] = (i * 31 + seed) & 0xff;
        const file = path.join(dir, `f-${n}-${seed}`);
        writeFileSync(file, bytes);
        expect(await hashFile(file)).toBe(hashBytes(bytes));
      }),
      { numRuns: 40 },
    );
  });

  it('rejects for a file that is not there, as the callers expect', async () => {
    await expect(hashFile(path.join(dir, 'absent'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
