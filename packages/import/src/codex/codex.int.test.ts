import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Compressor } from 'zstd-napi';
import { parseSubagentDescriptor } from '@strand/subagent';
import { importTranscripts } from '../run/import-transcripts.js';
import {
  PACKAGE_SRC,
  copyInto,
  dataOf,
  importedLogViolations,
  readStore,
  workspace,
  type Workspace,
} from '../testing/fixture-dirs.js';
import { codexRollout } from '../testing/synthetic.js';

const FORK_FIXTURES = path.join(PACKAGE_SRC, 'codex', 'fixtures', 'spawn-fork');
const PARENT = '01a00000-0000-7000-8000-000000000001';
const CHILD = '01a00000-0000-7000-8000-000000000002';
const parentFile = `rollout-2026-02-01T10-00-00-${PARENT}.jsonl`;
const childFile = `rollout-2026-02-01T10-00-30-${CHILD}.jsonl`;
/** A long synthetic rollout (~240 KB, several zstd frames once compressed). */
const LONG = codexRollout({ id: '01a00000-0000-7000-8000-0000000000aa', turns: 120 });

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
  mkdirSync(ws.source, { recursive: true });
});
afterEach(() => ws.dispose());

/** zstd as a rollout writer would produce it: a stream of several frames. */
function compressInFrames(bytes: Buffer, frameSize: number): Buffer {
  const compressor = new Compressor();
  compressor.setParameters({ compressionLevel: 3, checksumFlag: true });
  const frames: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += frameSize)
    frames.push(compressor.compress(bytes.subarray(at, at + frameSize)));
  return Buffer.concat(frames);
}

describe('compressed rollouts', () => {
  it('a .jsonl.zst rollout imports exactly like its plain form', async () => {
    const plain = Buffer.from(LONG);
    mkdirSync(path.join(ws.root, 'plain'));
    writeFileSync(path.join(ws.root, 'plain', 'rollout.jsonl'), plain);
    writeFileSync(path.join(ws.source, 'rollout.jsonl.zst'), compressInFrames(plain, 64 * 1024));
    const compressed = await importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
    const reference = await importTranscripts({
      harness: 'codex',
      sourceDir: path.join(ws.root, 'plain'),
      dataDir: path.join(ws.root, 'data-plain'),
    });
    expect(compressed).toMatchObject({ imported: 1, failed: 0, skipped: 0 });
    expect(reference).toMatchObject({ imported: 1 });
    const [a] = (await readStore(ws.data)).values();
    const [b] = (await readStore(path.join(ws.root, 'data-plain'))).values();
    expect(a!.events).toEqual(b!.events);
    expect(a!.events.length).toBeGreaterThan(100);
  });

  it('a truncated .zst stream is reported, and the lines before the cut import with the open turn left open', async () => {
    const plain = Buffer.from(LONG);
    const whole = compressInFrames(plain, 32 * 1024);
    writeFileSync(
      path.join(ws.source, 'rollout.jsonl.zst'),
      whole.subarray(0, Math.floor(whole.length * 0.6)),
    );
    const summary = await importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.reports).toContainEqual(
      expect.objectContaining({
        kind: 'skipped-record',
        reason: expect.stringContaining('zstd stream ends inside a frame'),
      }),
    );
    const [stored] = (await readStore(ws.data)).values();
    expect(importedLogViolations(stored!.events)).toEqual([]);
    // The cut leaves the last turn open and nobody closes it: the rollout may still grow.
    expect(stored!.events.filter((e) => e.type === 'turn/start').length).toBe(
      stored!.events.filter((e) => e.type === 'turn/end').length + 1,
    );
    expect(dataOf<{ reason: string }>(stored!, 'turn/end').map((e) => e.reason)).not.toContain('interrupted');
    expect(stored!.repairs).toEqual([]);
  });

  it('a .zst file that is not zstd fails alone, without stopping the others', async () => {
    writeFileSync(
      path.join(ws.source, 'broken.jsonl.zst'),
      Buffer.concat([
        compressInFrames(Buffer.from('{"x":1}\n'), 1024).subarray(0, 4),
        Buffer.from('garbage garbage garbage'),
      ]),
    );
    copyFileSync(path.join(FORK_FIXTURES, parentFile), path.join(ws.source, parentFile));
    const summary = await importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 1, failed: 1 });
    expect(summary.reports).toContainEqual({
      file: path.join(ws.source, 'broken.jsonl.zst'),
      line: null,
      kind: 'failed',
      reason: expect.stringContaining('zstd data is corrupt'),
    });
    // A failed file stays out of the ledger: the next run tries it again.
    const again = await importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
    expect(again).toMatchObject({ failed: 1, unchanged: 1 });
  });
});

describe('spawned forks', () => {
  it('a fork whose parent is in the import is seeded with the parent turns before the spawn', async () => {
    copyInto(FORK_FIXTURES, ws.source);
    const summary = await importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 2, failed: 0 });
    const store = await readStore(ws.data);
    const parent = store.get(`codex-${PARENT}`)!;
    const child = store.get(`codex-${CHILD}`)!;
    // The spawn happened in the parent's second turn: the child inherits everything before it.
    const secondTurn = parent.events.filter((e) => e.type === 'turn/start')[1]!.seq;
    expect(child.header).toMatchObject({
      isSeeded: true,
      forkedFrom: `codex-${PARENT}`,
      origin: 'subagent',
      parentSession: `codex-${PARENT}`,
      delegationDepth: 1,
    });
    expect(child.inheritedEventCount).toBe(secondTurn);
    expect(child.events.slice(0, secondTurn)).toEqual(parent.events.slice(0, secondTurn));
    const own = child.events.slice(secondTurn);
    expect(own[0]!.type).toBe('subagent/descriptor');
    expect(parseSubagentDescriptor(own[0]!.data)).toEqual({
      kind: 'ok',
      descriptor: { version: 2, mode: 'one-shot', label: 'Ada (worker)' },
    });
    expect(JSON.stringify(own)).not.toContain('Now write tests, use a helper agent');
    expect(
      dataOf({ ...child, events: own }, 'user/message').filter(
        (m) => (m as { author: string }).author !== 'system',
      ),
    ).toEqual([{ content: 'Write tests for the /health endpoint.', author: 'agent' }]);
    expect(dataOf({ ...child, events: own }, 'tool/call')).toEqual([
      { callId: 'call_C1', name: 'apply_patch', arguments: expect.stringContaining('*** Begin Patch') },
    ]);
    expect(importedLogViolations(child.events, child.inheritedEventCount)).toEqual([]);
  });

  it('a fork imported before its parent is unseeded, then seeded (replaced) once the parent arrives', async () => {
    copyFileSync(path.join(FORK_FIXTURES, childFile), path.join(ws.source, childFile));
    const alone = await importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
    expect(alone).toMatchObject({ imported: 1 });
    expect(alone.reports).toContainEqual(
      expect.objectContaining({ kind: 'note', reason: expect.stringContaining('imported unseeded') }),
    );
    const before = (await readStore(ws.data)).get(`codex-${CHILD}`)!;
    expect(before.header.isSeeded).toBe(false);

    copyFileSync(path.join(FORK_FIXTURES, parentFile), path.join(ws.source, parentFile));
    const later = await importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
    expect(later).toMatchObject({ imported: 1, updated: 1, replaced: 1, failed: 0 });
    const after = (await readStore(ws.data)).get(`codex-${CHILD}`)!;
    expect(after.header.isSeeded).toBe(true);
    expect(after.incarnation).not.toBe(before.incarnation);
    // Own events are the same as before; only the inherited prefix was added.
    expect(
      after.events.slice(after.inheritedEventCount).map(({ type, time, data }) => ({ type, time, data })),
    ).toEqual(before.events.map(({ type, time, data }) => ({ type, time, data })));

    const third = await importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
    expect(third).toMatchObject({ imported: 0, updated: 0, unchanged: 2 });
  });
});

describe('Codex mapping', () => {
  it('maps turns from task events, usage from running totals, custom tool calls and the request route', async () => {
    copyFileSync(path.join(FORK_FIXTURES, parentFile), path.join(ws.source, parentFile));
    await importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
    const parent = (await readStore(ws.data)).get(`codex-${PARENT}`)!;
    expect(parent.header).toMatchObject({
      cwd: '/home/dev/svc',
      createdAt: Date.parse('2026-02-01T10:00:00.000Z'),
    });
    // Injected context is kept as system messages; the developer message is not conversation.
    expect(dataOf<{ author: string }>(parent, 'user/message').map((m) => m.author)).toEqual([
      'system',
      'system',
      'human',
      'human',
    ]);
    expect(dataOf(parent, 'request/header')).toEqual([
      { provider: 'openai', model: 'gpt-5.4', reasoningEffort: 'medium' },
    ]);
    const usage = dataOf<{ usage?: { input: number; output: number } }>(parent, 'assistant/message').map(
      (m) => m.usage,
    );
    expect(usage.reduce((s, u) => s + (u?.input ?? 0), 0)).toBe(4500);
    expect(usage.reduce((s, u) => s + (u?.output ?? 0), 0)).toBe(260);
    expect(dataOf<{ reason: string }>(parent, 'turn/end').map((e) => e.reason)).toEqual([
      'completed',
      'completed',
    ]);
    expect(dataOf<{ title: string }>(parent, 'session/title')).toEqual([{ title: 'Add a health endpoint' }]);
  });
});

describe('0.104+ thread_spawn trees', () => {
  const TREE = path.join(PACKAGE_SRC, 'codex', 'fixtures', 'spawn-tree');
  const TREE_PARENT = 'codex-01b00000-0000-7000-8000-000000000001';
  const TREE_CHILD = 'codex-01b00000-0000-7000-8000-000000000002';
  const REVIEW = 'codex-01b00000-0000-7000-8000-000000000003';

  it('send_input follow-ups are the agent’s, the child is labelled from the spawn call, and the string subagent form is a subagent', async () => {
    copyInto(TREE, path.join(ws.source, '2026', '03', '01'));
    const summary = await importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 3, failed: 0, skipped: 0, reports: [] });
    const store = await readStore(ws.data);
    const child = store.get(TREE_CHILD)!;
    expect(child.header).toMatchObject({
      origin: 'subagent',
      parentSession: TREE_PARENT,
      delegationDepth: 1,
    });
    expect(dataOf(child, 'user/message')).toEqual([
      { content: 'Map the parser module', author: 'agent' },
      { content: 'Also check the lexer', author: 'agent' },
      { content: 'What about the tests?', author: 'human' },
    ]);
    // No nickname or role in the child's own session_meta: both come from the parent's calls.
    expect(dataOf(child, 'subagent/descriptor')).toEqual([
      { version: 2, mode: 'one-shot', label: 'Hume (explorer)' },
    ]);
    const review = store.get(REVIEW)!;
    expect(review.header).toMatchObject({ origin: 'subagent', delegationDepth: 1 });
    expect(review.header.parentSession).toBeUndefined();
    expect(dataOf(review, 'subagent/descriptor')).toEqual([
      { version: 2, mode: 'one-shot', label: 'review' },
    ]);
    expect(dataOf(review, 'user/message')).toEqual([{ content: 'Review the current diff', author: 'agent' }]);
    for (const log of store.values()) expect(importedLogViolations(log.events)).toEqual([]);

    const again = await importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
    expect(again).toMatchObject({ imported: 0, updated: 0, unchanged: 3, failed: 0 });
    expect(await readStore(ws.data)).toEqual(store);
  });

  it('without its parent the child keeps its own facts: only the spawn message is the agent’s', async () => {
    copyFileSync(
      path.join(TREE, 'rollout-2026-03-01T10-00-04-01b00000-0000-7000-8000-000000000002.jsonl'),
      path.join(ws.source, 'child.jsonl'),
    );
    await importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
    const child = (await readStore(ws.data)).get(TREE_CHILD)!;
    expect(dataOf<{ author: string }>(child, 'user/message').map((m) => m.author)).toEqual([
      'agent',
      'human',
      'human',
    ]);
    expect(dataOf(child, 'subagent/descriptor')).toEqual([{ version: 2, mode: 'one-shot' }]);
  });
});
