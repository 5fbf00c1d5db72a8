import { copyFileSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEDGER_FILE, MAPPING_REVISION } from './ledger/ledger.js';
import { importTranscripts } from './run/import-transcripts.js';
import { PACKAGE_SRC, readStore, workspace, type Workspace } from './testing/fixture-dirs.js';
import { codexRollout } from './testing/synthetic.js';

const UUID = '01b00000-0000-7000-8000-0000000000bb';
const ID = `codex-${UUID}`;
const DAMAGED = path.join(
  PACKAGE_SRC,
  'claude-code',
  'fixtures',
  'damaged',
  '0d0d0d0d-1111-4222-8333-444455556666.jsonl',
);

let ws: Workspace;
let rollout: string;
/** One synthetic rollout at two sizes: the stale copy is a byte prefix of the grown one. */
let STALE: string;
let GROWN: string;
beforeEach(() => {
  ws = workspace();
  mkdirSync(ws.source, { recursive: true });
  rollout = path.join(ws.source, `rollout-2026-02-10T09-00-00-${UUID}.jsonl`);
  mkdirSync(path.join(ws.root, 'copies'));
  STALE = path.join(ws.root, 'copies', 'stale.jsonl');
  GROWN = path.join(ws.root, 'copies', 'grown.jsonl');
  writeFileSync(STALE, codexRollout({ id: UUID, turns: 12 }));
  writeFileSync(GROWN, codexRollout({ id: UUID, turns: 20 }));
});
afterEach(() => ws.dispose());

const codex = () => importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: ws.data });
const plainEvents = (events: readonly { type: string; time: number; data: unknown }[]) =>
  events.map(({ type, time, data }) => ({ type, time, data }));

describe('re-importing', () => {
  it('a transcript that grew gets only its new events appended, in the same incarnation', async () => {
    copyFileSync(STALE, rollout);
    expect(await codex()).toMatchObject({ imported: 1 });
    const before = (await readStore(ws.data)).get(ID)!;

    copyFileSync(GROWN, rollout);
    const summary = await codex();
    expect(summary).toMatchObject({ imported: 0, updated: 1, replaced: 0, unchanged: 0, failed: 0 });
    expect(summary.sessions).toEqual([{ id: ID, file: rollout, outcome: 'appended' }]);
    const after = (await readStore(ws.data)).get(ID)!;
    expect(after.incarnation).toBe(before.incarnation);
    expect(after.events.slice(0, before.events.length)).toEqual(before.events);
    expect(after.events.length).toBeGreaterThan(before.events.length);
    // Appending gives exactly what a fresh import of the grown file gives.
    const fresh = await importTranscripts({
      harness: 'codex',
      sourceDir: ws.source,
      dataDir: path.join(ws.root, 'fresh'),
    });
    expect(fresh.imported).toBe(1);
    expect(plainEvents(after.events)).toEqual(
      plainEvents((await readStore(path.join(ws.root, 'fresh'))).get(ID)!.events),
    );
  });

  it('a transcript that diverged is deleted and created again as a new incarnation, reported as replaced', async () => {
    copyFileSync(GROWN, rollout);
    await codex();
    const before = (await readStore(ws.data)).get(ID)!;
    // Rewrite history: the first prompt says something else now.
    writeFileSync(
      rollout,
      readFileSync(rollout, 'utf8').replace('Write a requirement', 'Rewrite a requirement'),
    );
    const summary = await codex();
    expect(summary).toMatchObject({ imported: 0, updated: 1, replaced: 1 });
    expect(summary.reports).toEqual([
      { file: rollout, line: null, kind: 'replaced', reason: expect.stringContaining(ID) },
    ]);
    const after = (await readStore(ws.data)).get(ID)!;
    expect(after.incarnation).not.toBe(before.incarnation);
    expect(JSON.stringify(after.events)).toContain('Rewrite a requirement');
    expect(after.events.length).toBe(before.events.length);
  });

  it('a touched file (new mtime, same bytes) is recognised by its hash and not mapped again', async () => {
    copyFileSync(GROWN, rollout);
    await codex();
    const revision = (await readStore(ws.data)).get(ID)!.revision;
    utimesSync(rollout, new Date(), new Date(Date.now() + 60_000));
    expect(await codex()).toMatchObject({ imported: 0, updated: 0, unchanged: 1, sessions: [] });
    expect((await readStore(ws.data)).get(ID)!.revision).toBe(revision);
  });

  it('without its ledger, a re-import compares with the stored logs and still changes nothing', async () => {
    copyFileSync(GROWN, rollout);
    await codex();
    const revision = (await readStore(ws.data)).get(ID)!.revision;
    rmSync(path.join(ws.data, LEDGER_FILE));
    const summary = await codex();
    expect(summary).toMatchObject({ imported: 0, updated: 0, unchanged: 1 });
    expect(summary.sessions).toEqual([{ id: ID, file: rollout, outcome: 'unchanged' }]);
    expect((await readStore(ws.data)).get(ID)!.revision).toBe(revision);
  });

  it('a corrupt ledger is reported and treated as absent', async () => {
    copyFileSync(GROWN, rollout);
    await codex();
    writeFileSync(path.join(ws.data, LEDGER_FILE), '{"version":1,"entries":');
    const summary = await codex();
    expect(summary).toMatchObject({ imported: 0, updated: 0, unchanged: 1, failed: 0 });
    expect(summary.reports).toContainEqual(
      expect.objectContaining({ kind: 'note', reason: expect.stringContaining('unreadable') }),
    );
  });

  it('a ledger written by earlier importers is set aside: every file is mapped and compared again, once', async () => {
    copyFileSync(GROWN, rollout);
    await codex();
    const file = path.join(ws.data, LEDGER_FILE);
    const earlier = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(earlier.mapping).toBe(MAPPING_REVISION);
    delete earlier.mapping; // as the importers before the revision wrote it
    writeFileSync(file, JSON.stringify(earlier));
    const summary = await codex();
    // Compared with the stored log (a file settled by the ledger lists no session).
    expect(summary.sessions).toEqual([{ id: ID, file: rollout, outcome: 'unchanged' }]);
    expect(summary.reports).toContainEqual(
      expect.objectContaining({
        kind: 'note',
        reason: expect.stringContaining(`mapping 1 → ${MAPPING_REVISION}`),
      }),
    );
    // The ledger is written anew under this revision: the next run settles the file by its stamps.
    expect(await codex()).toMatchObject({ unchanged: 1, sessions: [] });
  });

  it('a stale copy that changes later never displaces the larger copy', async () => {
    copyFileSync(GROWN, path.join(ws.source, 'grown.jsonl'));
    copyFileSync(STALE, path.join(ws.source, 'stale.jsonl'));
    expect(await codex()).toMatchObject({ imported: 1, skipped: 1 });
    const revision = (await readStore(ws.data)).get(ID)!.revision;
    // The stale copy grows a little (still smaller than the other copy): it is peeked again and
    // loses again, so the stored session keeps following the larger copy.
    const extra = JSON.stringify({
      timestamp: '2026-02-10T09:30:00.000Z',
      type: 'event_msg',
      payload: { type: 'agent_reasoning', text: 'late' },
    });
    writeFileSync(
      path.join(ws.source, 'stale.jsonl'),
      Buffer.concat([readFileSync(STALE), Buffer.from(extra + '\n')]),
    );
    const summary = await codex();
    expect(summary).toMatchObject({ imported: 0, updated: 0, failed: 0, skipped: 1 });
    expect(summary.reports).toEqual([
      expect.objectContaining({ kind: 'skipped-file', file: path.join(ws.source, 'stale.jsonl') }),
    ]);
    expect((await readStore(ws.data)).get(ID)!.revision).toBe(revision);
  });

  it('reports the same problems again only when the file changes', async () => {
    copyFileSync(DAMAGED, path.join(ws.source, path.basename(DAMAGED)));
    const claude = () =>
      importTranscripts({ harness: 'claude-code', sourceDir: ws.source, dataDir: ws.data });
    expect((await claude()).skipped).toBe(3);
    expect(await claude()).toMatchObject({ skipped: 0, unchanged: 1, reports: [] });
  });

  it('reports progress for every file', async () => {
    copyFileSync(GROWN, rollout);
    copyFileSync(STALE, path.join(ws.source, 'stale.jsonl'));
    const calls: [number, number, string][] = [];
    await importTranscripts({
      harness: 'codex',
      sourceDir: ws.source,
      dataDir: ws.data,
      onProgress: (done, total, file) => calls.push([done, total, file]),
    });
    expect(calls[0]).toEqual([0, 2, '']);
    expect(calls.at(-1)![0]).toBe(2);
    expect(new Set(calls.slice(1).map((c) => c[2]))).toEqual(
      new Set([rollout, path.join(ws.source, 'stale.jsonl')]),
    );
  });
});
