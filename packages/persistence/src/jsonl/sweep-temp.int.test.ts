import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJsonlPersistence } from './jsonl-persistence.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function leftover(): string {
  root = mkdtempSync(path.join(tmpdir(), 'strand-sweep-'));
  mkdirSync(path.join(root, 'tmp'));
  const file = path.join(root, 'tmp', 'in-flight.zst');
  writeFileSync(file, 'partial first write');
  return file;
}

describe('opening a JSONL folder and its temp files', () => {
  it('a writer sweeps the temp files of interrupted first writes', async () => {
    const file = leftover();
    await (await openJsonlPersistence({ root })).close();
    expect(existsSync(file)).toBe(false);
  });

  it('a reader beside another writer (sweepTemp: false) leaves its in-flight temp files alone', async () => {
    const file = leftover();
    await (await openJsonlPersistence({ root, sweepTemp: false })).close();
    expect(existsSync(file)).toBe(true);
  });
});
