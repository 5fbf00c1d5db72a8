import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PACKAGE_SRC,
  REAL_FIXTURES,
  copyInto,
  readStore,
  workspace,
  type Workspace,
} from '../testing/fixture-dirs.js';
import type { ImportOptions, ImportSummary } from '../types.js';
import type { FileOutcome } from './process-file.js';

/**
 * Worker lanes need a TypeScript loader a worker thread can register, which the test runner's
 * own transform is not: these tests run the import in a child process started with tsx.
 */
const REPO = path.resolve(fileURLToPath(import.meta.url), '../../../../..');
const TESTING = path.join(PACKAGE_SRC, 'testing');

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.dispose());

function child<T>(script: string, ...args: string[]): T {
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(TESTING, script), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`child failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as T;
}

const importInChild = (options: ImportOptions): ImportSummary =>
  child<ImportSummary>('import-in-child.ts', JSON.stringify(options));
const plain = (events: readonly { type: string; time: number; data: unknown }[]) =>
  events.map(({ type, time, data }) => ({ type, time, data }));

describe('worker lanes', () => {
  it('a worker thread maps and writes files exactly as the coordinating thread does', async () => {
    copyInto(path.join(REAL_FIXTURES, 'claude-code'), ws.source);
    const outcomes = child<FileOutcome[]>(
      'worker-lane-in-child.ts',
      'claude-code',
      ws.source,
      path.join(ws.root, 'worker'),
    );
    expect(outcomes.map((o) => o.result.kind)).toEqual(['written', 'written', 'written']);
    const single = importInChild({
      harness: 'claude-code',
      sourceDir: ws.source,
      dataDir: path.join(ws.root, 'single'),
      workers: 0,
    });
    expect(single.imported).toBe(8);
    const a = await readStore(path.join(ws.root, 'worker'));
    const b = await readStore(path.join(ws.root, 'single'));
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [id, log] of a) {
      expect(log.header).toEqual(b.get(id)!.header);
      expect(plain(log.events)).toEqual(plain(b.get(id)!.events));
    }
  });

  it('an import with workers gives the same sessions, forks seeded from parents any lane wrote', async () => {
    copyInto(path.join(REAL_FIXTURES, 'codex'), path.join(ws.source, 'real'));
    copyInto(path.join(PACKAGE_SRC, 'codex', 'fixtures', 'spawn-fork'), path.join(ws.source, 'fork'));
    const threaded = importInChild({
      harness: 'codex',
      sourceDir: ws.source,
      dataDir: path.join(ws.root, 'threaded'),
      workers: 2,
      concurrency: 1,
    });
    expect(threaded).toMatchObject({ imported: 7, failed: 0, skipped: 1 });
    const stored = await readStore(path.join(ws.root, 'threaded'));
    expect(stored.get('codex-01a00000-0000-7000-8000-000000000002')!.header.isSeeded).toBe(true);
    const again = importInChild({
      harness: 'codex',
      sourceDir: ws.source,
      dataDir: path.join(ws.root, 'threaded'),
      workers: 2,
    });
    expect(again).toMatchObject({ imported: 0, updated: 0, unchanged: 7 });
  });
});
