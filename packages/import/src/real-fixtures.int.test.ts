import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredLog } from '@strand/persistence';
import { checkLogInvariants } from '@strand/session';
import { parseSubagentDescriptor } from '@strand/subagent';
import { importTranscripts } from './run/import-transcripts.js';
import {
  REAL_FIXTURES,
  REAL_FIXTURES_SKIPPED,
  copyInto,
  dataOf,
  readStore,
  snapshotTree,
  workspace,
  type Workspace,
} from './testing/fixture-dirs.js';
import type { Harness, ImportSummary } from './types.js';

/**
 * Every public transcript in the folder `STRAND_REAL_FIXTURES` names (one subfolder per harness,
 * kept outside the repository; `.ci/run` sets it) imports, copied into a temp folder first, with
 * the cases that folder's notes call out: inline sidechains, an orphan flat sidechain file, a
 * forked Codex subagent whose parent is absent, one Codex session present at two sizes, and Gemini
 * rows rewritten by id. Without the variable the suite is skipped (the synthetic fixtures of each
 * importer's own suites cover the same shapes).
 */
const real = REAL_FIXTURES;
if (real === undefined) console.log(`real-fixtures.int.test.ts: skipped (${REAL_FIXTURES_SKIPPED})`);

let ws: Workspace;
const first = new Map<Harness, ImportSummary>();
let store: Map<string, StoredLog>;
let sourceBefore: Map<string, string>;

beforeAll(async () => {
  if (real === undefined) return;
  ws = workspace();
  copyInto(real, ws.source);
  sourceBefore = snapshotTree(ws.source);
  for (const harness of ['claude-code', 'codex', 'gemini'] as const) {
    first.set(
      harness,
      await importTranscripts({ harness, sourceDir: path.join(ws.source, harness), dataDir: ws.data }),
    );
  }
  store = await readStore(ws.data);
});
afterAll(() => {
  if (real !== undefined) ws.dispose();
});

const log = (id: string): StoredLog => {
  const found = store.get(id);
  if (found === undefined) throw new Error(`session ${id} not stored; have ${[...store.keys()].join(', ')}`);
  return found;
};

describe.skipIf(real === undefined)(
  real === undefined ? REAL_FIXTURES_SKIPPED : 'the real transcripts',
  () => {
    it("all import without failures, and every stored log is valid; a turn left open is the source's last", () => {
      for (const summary of first.values()) expect(summary.failed).toBe(0);
      expect(first.get('claude-code')).toMatchObject({ imported: 8, skipped: 0 });
      expect(first.get('codex')).toMatchObject({ imported: 5, skipped: 1 });
      expect(first.get('gemini')).toMatchObject({ imported: 4, skipped: 0 });
      expect(store.size).toBe(17);
      for (const stored of store.values()) {
        const options = { inheritedEventCount: stored.inheritedEventCount };
        expect(checkLogInvariants(stored.events, { ...options, closedTurns: false })).toEqual([]);
        // The prefix law: no closers at end of file, so a source that stops mid-turn leaves that
        // turn open — only ever its last one, and never repaired (the other harness owns it).
        const lastTurnStart = stored.events.findLast((event) => event.type === 'turn/start')?.seq;
        for (const issue of checkLogInvariants(stored.events, { ...options, closedTurns: true }))
          expect(issue).toEqual({ kind: 'open-turn', turnStartSeq: lastTurnStart });
        expect(stored.header.source).toBeDefined();
        expect(stored.repairs).toEqual([]);
      }
    });

    it('never modifies a source file', () => {
      expect(snapshotTree(ws.source)).toEqual(sourceBefore);
    });

    it('Claude 1.0 inline sidechains become five subagent children, labelled from their Task calls', () => {
      const parentId = 'claude-fe5e1c67-53e7-4862-81ae-d0e013e3270b';
      const parent = log(parentId);
      expect(dataOf<{ title: string }>(parent, 'session/title')[0]?.title).toBe(
        'Empty Repo Setup: CLAUDE.md Foundation Created',
      );
      const taskCalls = dataOf<{ name: string }>(parent, 'tool/call').filter((c) => c.name === 'Task');
      expect(taskCalls).toHaveLength(5);
      // Sidechain lines are not the parent's events.
      expect(parent.events.length).toBeLessThan(60);
      const children = [...store.values()].filter((s) => s.header.parentSession === parentId);
      expect(children).toHaveLength(5);
      const labels = children.map((child) => {
        expect(child.header).toMatchObject({ origin: 'subagent', delegationDepth: 1, isSeeded: false });
        expect(child.events[0]!.type).toBe('subagent/descriptor');
        const parsed = parseSubagentDescriptor(child.events[0]!.data);
        expect(parsed.kind).toBe('ok');
        expect(dataOf<{ author: string }>(child, 'user/message')[0]?.author).toBe('agent');
        return parsed.kind === 'ok' ? parsed.descriptor.label : undefined;
      });
      expect(labels.sort()).toEqual([
        'Build TODO components',
        'Create data models',
        'Create main page integration',
        'Implement state management',
        'Setup Next.js project',
      ]);
    });

    it('a flat 2.0 sidechain file whose parent is absent imports as a child of the absent parent, with a note', () => {
      const child = log('claude-ab51623b-c26d-45f5-b98e-f9d0cfa17018-agent-773d7508');
      expect(child.header).toMatchObject({
        origin: 'subagent',
        parentSession: 'claude-ab51623b-c26d-45f5-b98e-f9d0cfa17018',
      });
      expect(store.has('claude-ab51623b-c26d-45f5-b98e-f9d0cfa17018')).toBe(false);
      expect(first.get('claude-code')!.reports).toContainEqual(
        expect.objectContaining({
          kind: 'note',
          reason: expect.stringContaining('parent session claude-ab51623b'),
        }),
      );
    });

    it('a forked Codex subagent whose parent is absent is an unseeded child without the replayed parent history', () => {
      const child = log('codex-019ce419-2314-7450-93de-70915b5c62d2');
      expect(child.header).toMatchObject({
        isSeeded: false,
        origin: 'subagent',
        parentSession: 'codex-019ce3fb-1087-7980-8f92-8d0171aaea6a',
        delegationDepth: 1,
      });
      expect(child.inheritedEventCount).toBe(0);
      const descriptor = parseSubagentDescriptor(child.events[0]!.data);
      expect(descriptor).toEqual({
        kind: 'ok',
        descriptor: { version: 2, mode: 'one-shot', label: 'Locke (worker)' },
      });
      const prompts = dataOf<{ content: string; author: string }>(child, 'user/message').filter(
        (m) => m.author !== 'system',
      );
      expect(prompts[0]).toMatchObject({
        author: 'agent',
        content: expect.stringMatching(/^Implement Batch 4/),
      });
      // The parent's history (ending with "launch subagents…") is replayed in the file, not imported.
      expect(JSON.stringify(child.events)).not.toContain('launch subagents to fulfill all the batches');
      expect(dataOf(child, 'turn/start')).toHaveLength(6);
      expect(first.get('codex')!.reports).toContainEqual(
        expect.objectContaining({ kind: 'note', reason: expect.stringContaining('imported unseeded') }),
      );
    });

    it('one Codex session present at two sizes imports once, from the larger copy', () => {
      const sessions = first
        .get('codex')!
        .sessions.filter((s) => s.id === 'codex-019b2241-a0a9-7740-a0c0-33c010d4f7e6');
      expect(sessions).toEqual([
        expect.objectContaining({ outcome: 'imported', file: expect.stringContaining('@301aad6') }),
      ]);
      expect(first.get('codex')!.reports).toContainEqual(
        expect.objectContaining({ kind: 'skipped-file', file: expect.stringContaining('@e2f3258') }),
      );
      const stored = log('codex-019b2241-a0a9-7740-a0c0-33c010d4f7e6');
      expect(dataOf(stored, 'turn/start')).toHaveLength(2);
      // Token usage: the rollout's running total, counted once despite duplicated token_count events,
      // each kind apart — Codex's input_tokens (613,979) holds the cached part, read as cache reads.
      const usage: Record<string, number> = {};
      for (const m of dataOf<{ usage?: Record<string, number> }>(stored, 'assistant/message'))
        for (const [kind, n] of Object.entries(m.usage ?? {})) usage[kind] = (usage[kind] ?? 0) + n;
      expect(usage.input! + usage.cacheRead!).toBe(613_979);
      expect(usage).toEqual({ input: 109_275, cacheRead: 504_704, output: 22_020, reasoning: 12_992 });
    });

    it('Gemini rows rewritten by id: each write is its own assistant message, in written order', () => {
      const stored = log('gemini-0ab84937-9fe7-4284-986a-33c832af0b6a');
      // The prefix law: a row written again by id adds a message with only what it added, so the
      // file's every `gemini` record (6 rows, 11 writes) is one message.
      const records = readFileSync(
        path.join(ws.source, 'gemini', 'Mai0313__VibeCodingTracker__gemini.jsonl'),
        'utf8',
      )
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as { type?: string; id?: string });
      const writes = records.filter((record) => record.type === 'gemini');
      expect(new Set(writes.map((record) => record.id)).size).toBeLessThan(writes.length);
      expect(dataOf(stored, 'assistant/message')).toHaveLength(writes.length);
      expect(dataOf(stored, 'tool/call').length).toBe(dataOf(stored, 'tool/result').length);
      expect(dataOf<{ title: string }>(stored, 'session/title')[0]?.title).toBe('/init');
      // "Request cancelled." aborts the last turn.
      expect(dataOf<{ reason: string }>(stored, 'turn/end').map((e) => e.reason)).toEqual([
        'completed',
        'aborted',
      ]);
    });

    it('a second run changes nothing: every session unchanged, no new events, no reports', async () => {
      const before = await readStore(ws.data);
      for (const harness of ['claude-code', 'codex', 'gemini'] as const) {
        const again = await importTranscripts({
          harness,
          sourceDir: path.join(ws.source, harness),
          dataDir: ws.data,
        });
        expect(again).toMatchObject({ imported: 0, updated: 0, skipped: 0, failed: 0, reports: [] });
        expect(again.unchanged).toBe(first.get(harness)!.imported);
      }
      const after = await readStore(ws.data);
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [id, stored] of after) expect(stored.revision).toBe(before.get(id)!.revision);
    });
  },
);
