import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarnessWriteError } from './errors.js';
import { writeWhole } from './write-whole.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'strand-write-whole-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeWhole', () => {
  it('replaces a file whole, leaving nothing beside it', async () => {
    const file = path.join(dir, 'out.jsonl');
    writeFileSync(file, 'old\n');
    await writeWhole(file, 'new\n');
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(readdirSync(dir)).toEqual(['out.jsonl']);
  });

  it('fails as write-failed when the rename cannot land, removing its synced temp file', async () => {
    // A non-empty folder where the file goes: the temp file is written and synced, the rename refused.
    const file = path.join(dir, 'taken');
    mkdirSync(file);
    writeFileSync(path.join(file, 'inside'), 'x');
    const failure = await writeWhole(file, 'text').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HarnessWriteError);
    expect(failure).toMatchObject({ reason: 'write-failed', message: expect.stringContaining(file) });
    expect(readdirSync(dir)).toEqual(['taken']);
    expect(readdirSync(file)).toEqual(['inside']);
  });
});
