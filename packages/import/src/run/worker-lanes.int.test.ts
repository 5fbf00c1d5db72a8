import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PACKAGE_SRC, copyInto, readStore, workspace, type Workspace } from '../testing/fixture-dirs.js';
import type { ProbeDigest } from '../testing/digest-probe.js';
import { codexRollout } from '../testing/synthetic.js';
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

function spawnChild(script: string, args: readonly string[], timeout = 120_000) {
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(TESTING, script), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout,
  });
}

function child<T>(script: string, ...args: string[]): T {
  const run = spawnChild(script, args);
  if (run.status !== 0) throw new Error(`child failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as T;
}

const importInChild = (options: ImportOptions): ImportSummary =>
  child<ImportSummary>('import-in-child.ts', JSON.stringify(options));
const plain = (events: readonly { type: string; time: number; data: unknown }[]) =>
  events.map(({ type, time, data }) => ({ type, time, data }));

describe('worker lanes', () => {
  it('a worker thread maps and writes files exactly as the coordinating thread does', async () => {
    const claude = path.join(PACKAGE_SRC, 'claude-code', 'fixtures');
    // Files that map alone (no child here needs its parent's Task call): inline 1.0 sidechains, a
    // damaged transcript, a 2.0 main file and a warmup agent file.
    copyInto(path.join(claude, 'inline-1.0'), path.join(ws.source, 'inline'));
    copyInto(path.join(claude, 'damaged'), path.join(ws.source, 'damaged'));
    for (const name of ['7c7c7c7c-1111-4222-8333-444455556666.jsonl', 'agent-9e9e9e9e.jsonl'])
      copyInto(path.join(claude, 'flat-2.0', '-home-dev-tool', name), path.join(ws.source, 'flat', name));
    const outcomes = child<FileOutcome[]>(
      'worker-lane-in-child.ts',
      'claude-code',
      ws.source,
      path.join(ws.root, 'worker'),
    );
    // The warmup agent file holds nothing to write.
    expect(outcomes.map((o) => o.result.kind).sort()).toEqual(['empty', 'written', 'written', 'written']);
    const single = importInChild({
      harness: 'claude-code',
      sourceDir: ws.source,
      dataDir: path.join(ws.root, 'single'),
      workers: 0,
    });
    expect(single.imported).toBe(5);
    const a = await readStore(path.join(ws.root, 'worker'));
    const b = await readStore(path.join(ws.root, 'single'));
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [id, log] of a) {
      expect(log.header).toEqual(b.get(id)!.header);
      expect(plain(log.events)).toEqual(plain(b.get(id)!.events));
    }
  });

  it('a worker lane loads the session digest module and digests each session it wrote, as stored', async () => {
    mkdirSync(ws.source, { recursive: true });
    for (const [name, turns] of [
      ['a', 3],
      ['b', 1],
    ] as const)
      writeFileSync(
        path.join(ws.source, `rollout-${name}.jsonl`),
        codexRollout({ id: `01e00000-0000-7000-8000-0000000000e${name === 'a' ? 1 : 2}`, turns }),
      );
    const data = path.join(ws.root, 'worker');
    const probe = pathToFileURL(path.join(TESTING, 'digest-probe.ts')).href;
    const outcomes = child<FileOutcome[]>('worker-lane-in-child.ts', 'codex', ws.source, data, probe);
    const digests = outcomes.flatMap((o) =>
      o.result.kind === 'written' ? ((o.result.digests ?? []) as ProbeDigest[]) : [],
    );
    const stored = await readStore(data);
    expect(digests.map((d) => d.id).sort()).toEqual([...stored.keys()].sort());
    for (const digest of digests) {
      // Made in the worker thread, not the one that started it.
      expect(digest.threadId).not.toBe(0);
      const log = stored.get(digest.id)!;
      expect(digest).toMatchObject({ events: log.events.length, incarnation: log.incarnation });
    }
  });

  it('a worker that dies with a file in flight fails only that file; the other lane writes the rest', async () => {
    mkdirSync(ws.source, { recursive: true });
    for (let i = 1; i <= 4; i++)
      writeFileSync(
        path.join(ws.source, `rollout-${i}.jsonl`),
        codexRollout({ id: `01d00000-0000-7000-8000-0000000000d${i}`, turns: 2 }),
      );
    const data = path.join(ws.root, 'data');
    const probe = pathToFileURL(path.join(TESTING, 'digest-probe.ts')).href;
    const files = child<{ file: string; outcomes: FileOutcome[] }[]>(
      'worker-dies-in-child.ts',
      'codex',
      ws.source,
      data,
      probe,
    );
    expect(files).toHaveLength(4);
    // Exactly one outcome a file: the worker's one file failed with why, the others written here.
    for (const { outcomes } of files) expect(outcomes).toHaveLength(1);
    const failed = files.filter((f) => f.outcomes[0]!.result.kind === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.outcomes[0]!.result).toEqual({ kind: 'failed', reason: 'import worker exited (3)' });
    const written = files.filter((f) => f.outcomes[0]!.result.kind === 'written');
    expect(written).toHaveLength(3);
    const stored = await readStore(data);
    for (const { outcomes } of written) {
      const result = outcomes[0]!.result;
      if (result.kind !== 'written') continue;
      expect(result.sessions.length).toBeGreaterThan(0);
      for (const session of result.sessions) expect(stored.has(session.id)).toBe(true);
    }
  });

  it('a data folder that cannot be prepared while a worker loads fails the run, and no worker outlives it', () => {
    mkdirSync(ws.source, { recursive: true });
    writeFileSync(
      path.join(ws.source, 'rollout-a.jsonl'),
      codexRollout({ id: '01f00000-0000-7000-8000-0000000000f1', turns: 2 }),
    );
    // `sessions` is a file: preparing the folder fails after the worker has started loading.
    const data = path.join(ws.root, 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(path.join(data, 'sessions'), 'not a folder');
    const options: ImportOptions = { harness: 'codex', sourceDir: ws.source, dataDir: data, workers: 1 };
    const run = spawnChild('import-in-child.ts', [JSON.stringify(options)], 60_000);
    // The run failed with the folder's reason, and the child, which catches it and lets its event
    // loop drain, ended by itself: a worker still running would have kept it alive until the
    // timeout killed it.
    expect(run.error).toBeUndefined();
    expect(run.signal).toBeNull();
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/opening the session store failed/);
  });

  it('an import with workers gives the same sessions, forks seeded from parents any lane wrote', async () => {
    // Two rollouts, one of them also present as a smaller (stale) copy, beside a fork and its parent.
    const long = '01c00000-0000-7000-8000-0000000000c1';
    const short = '01c00000-0000-7000-8000-0000000000c2';
    mkdirSync(path.join(ws.source, 'own', 'copy'), { recursive: true });
    writeFileSync(
      path.join(ws.source, 'own', `rollout-${long}.jsonl`),
      codexRollout({ id: long, turns: 30 }),
    );
    writeFileSync(
      path.join(ws.source, 'own', 'copy', `rollout-${long}.jsonl`),
      codexRollout({ id: long, turns: 10 }),
    );
    writeFileSync(
      path.join(ws.source, 'own', `rollout-${short}.jsonl`),
      codexRollout({ id: short, turns: 2 }),
    );
    copyInto(path.join(PACKAGE_SRC, 'codex', 'fixtures', 'spawn-fork'), path.join(ws.source, 'fork'));
    const threaded = importInChild({
      harness: 'codex',
      sourceDir: ws.source,
      dataDir: path.join(ws.root, 'threaded'),
      workers: 2,
      concurrency: 1,
    });
    expect(threaded).toMatchObject({ imported: 4, failed: 0, skipped: 1 });
    const stored = await readStore(path.join(ws.root, 'threaded'));
    expect(stored.get('codex-01a00000-0000-7000-8000-000000000002')!.header.isSeeded).toBe(true);
    const again = importInChild({
      harness: 'codex',
      sourceDir: ws.source,
      dataDir: path.join(ws.root, 'threaded'),
      workers: 2,
    });
    expect(again).toMatchObject({ imported: 0, updated: 0, unchanged: 4 });
  });
});
