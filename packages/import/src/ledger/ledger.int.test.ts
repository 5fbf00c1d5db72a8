import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isImportError } from '../errors.js';
import { Ledger, type LedgerEntry } from './ledger.js';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const scratch = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'strand-ledger-'));
  folders.push(dir);
  return dir;
};
const entry = (size: number): LedgerEntry => ({
  harness: 'aider',
  size,
  mtimeMs: 1_700_000_000_000 + size,
  hash: `h${size}`,
  companions: [],
  sessions: [{ id: `aider-${size}`, events: size }],
});
const reloaded = async (dataDir: string): Promise<Map<string, LedgerEntry | undefined>> => {
  const { ledger, problem } = await Ledger.load(dataDir);
  expect(problem).toBeUndefined();
  return new Map(['/a', '/b', '/c'].map((file) => [file, ledger.get(file)]));
};

describe('Ledger.save while entries keep arriving (an import saves as its lanes go on)', () => {
  it('an entry set while a save is being written is written by the next save', async () => {
    const dataDir = scratch();
    const { ledger } = await Ledger.load(dataDir);
    ledger.set('/a', entry(1));
    const first = ledger.save();
    // The save has taken its snapshot; this entry is not in it, and must not be forgotten.
    ledger.set('/b', entry(2));
    await first;
    expect((await reloaded(dataDir)).get('/b')).toBeUndefined();
    await ledger.save();
    const saved = await reloaded(dataDir);
    expect(saved.get('/a')).toEqual(entry(1));
    expect(saved.get('/b')).toEqual(entry(2));
  });

  it('a save that failed is not taken for done: the next one writes every entry', async () => {
    const root = scratch();
    const dataDir = path.join(root, 'data');
    const { ledger } = await Ledger.load(dataDir);
    ledger.set('/a', entry(1));
    ledger.set('/c', entry(3));
    // A file where the data folder should be: the ledger's folder cannot be made.
    writeFileSync(dataDir, 'not a folder');
    await expect(ledger.save()).rejects.toSatisfy(
      (e) => isImportError(e) && e.code === 'IMPORT_LEDGER_WRITE_FAILED',
    );
    rmSync(dataDir);
    await ledger.save();
    const saved = await reloaded(dataDir);
    expect(saved.get('/a')).toEqual(entry(1));
    expect(saved.get('/c')).toEqual(entry(3));
  });
});
