import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PACKAGE_SRC, copyInto, readStore, workspace, type Workspace } from '../testing/fixture-dirs.js';
import type { ProbeDigest } from '../testing/digest-probe.js';
import { codexRollout } from '../testing/synthetic.js';
import { importTranscripts } from './import-transcripts.js';

const PROBE = pathToFileURL(path.join(PACKAGE_SRC, 'testing', 'digest-probe.ts')).href;

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.dispose());

/** One import run with the probe digest, in this thread; resolves with its summary and digests. */
async function importWithProbe() {
  const digests: ProbeDigest[] = [];
  const summary = await importTranscripts({
    harness: 'codex',
    sourceDir: ws.source,
    dataDir: ws.data,
    workers: 0,
    digest: { module: PROBE, collect: (batch) => digests.push(...(batch as ProbeDigest[])) },
  });
  return { summary, digests };
}

const rollout = (name: string, id: string, turns: number): void => {
  mkdirSync(path.join(ws.source, 'own'), { recursive: true });
  writeFileSync(path.join(ws.source, 'own', name), codexRollout({ id, turns }));
};

/** Every digest equals the stored log it names: events, last seq, incarnation, inherited prefix. */
async function expectDigestsOfStore(digests: readonly ProbeDigest[]): Promise<void> {
  const stored = await readStore(ws.data);
  for (const digest of digests) {
    const log = stored.get(digest.id)!;
    expect(digest).toMatchObject({
      events: log.events.length,
      lastSeq: log.events.at(-1)?.seq,
      incarnation: log.incarnation,
      inherited: log.inheritedEventCount,
    });
  }
}

describe('a session digest', () => {
  it('is made once for each session a run writes, from the log exactly as stored', async () => {
    rollout('rollout-a.jsonl', '01d00000-0000-7000-8000-0000000000d1', 4);
    rollout('rollout-b.jsonl', '01d00000-0000-7000-8000-0000000000d2', 1);
    // A fork and its parent: the fork's log holds the parent's prefix as inherited events.
    copyInto(path.join(PACKAGE_SRC, 'codex', 'fixtures', 'spawn-fork'), path.join(ws.source, 'fork'));
    const { summary, digests } = await importWithProbe();
    expect(summary).toMatchObject({ imported: 4, failed: 0 });
    expect(digests.map((d) => d.id).sort()).toEqual(summary.sessions.map((s) => s.id).sort());
    expect(digests.some((d) => d.inherited > 0)).toBe(true);
    await expectDigestsOfStore(digests);
  });

  it('is made again only for what changed, with the whole log of a session that grew', async () => {
    const id = '01d00000-0000-7000-8000-0000000000d3';
    rollout('rollout-c.jsonl', id, 3);
    rollout('rollout-d.jsonl', '01d00000-0000-7000-8000-0000000000d4', 2);
    await importWithProbe();
    const unchanged = await importWithProbe();
    expect(unchanged.summary).toMatchObject({ imported: 0, updated: 0, unchanged: 2 });
    expect(unchanged.digests).toEqual([]);

    rollout('rollout-c.jsonl', id, 6); // the same thread, three turns on
    const grown = await importWithProbe();
    expect(grown.summary).toMatchObject({ imported: 0, updated: 1, replaced: 0 });
    expect(grown.digests.map((d) => d.id)).toEqual([`codex-${id}`]);
    await expectDigestsOfStore(grown.digests);
  });

  it('that throws fails its file, and only its file', async () => {
    rollout('rollout-e.jsonl', 'digest-throws-e', 2);
    rollout('rollout-f.jsonl', '01d00000-0000-7000-8000-0000000000d6', 2);
    const { summary, digests } = await importWithProbe();
    expect(summary.failed).toBe(1);
    expect(summary.reports).toContainEqual(
      expect.objectContaining({
        kind: 'failed',
        file: path.join(ws.source, 'own', 'rollout-e.jsonl'),
        reason: expect.stringContaining('cannot digest the sessions written: the probe digest threw'),
      }),
    );
    expect(digests.map((d) => d.id)).toEqual(['codex-01d00000-0000-7000-8000-0000000000d6']);
  });
});
