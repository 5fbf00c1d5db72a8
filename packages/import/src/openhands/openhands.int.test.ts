import { cpSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importTranscripts } from '../run/import-transcripts.js';
import {
  PACKAGE_SRC,
  readStore,
  realFixtureDir,
  realFixturesSkipped,
  workspace,
  type Workspace,
} from '../testing/fixture-dirs.js';
import { eventFiles } from './discover.js';
import { openhandsImporter } from './openhands-importer.js';

const FIXTURES = path.join(PACKAGE_SRC, 'openhands', 'fixtures');
const SYNTHETIC = '5f2b0c9e8a7d4c3b9e1f0a2b3c4d5e6f';

let open: Workspace[] = [];
afterEach(() => {
  for (const w of open) w.dispose();
  open = [];
});

// OpenHands's recorded trajectories are kept beside the repository, never in it
// (`STRAND_REAL_FIXTURES`/openhands, with their source and license).
const REAL = realFixtureDir('openhands');

function sourceWith(folder: string): Workspace {
  const w = workspace('strand-openhands-');
  open.push(w);
  cpSync(folder === 'real' ? REAL! : path.join(FIXTURES, folder), w.source, { recursive: true });
  return w;
}

const importOnce = (w: Workspace) =>
  importTranscripts({ harness: 'openhands', sourceDir: w.source, dataDir: w.data });

function said(events: readonly { type: string; data: unknown }[]): string[] {
  return events
    .filter((e) => e.type === 'user/message' || e.type === 'assistant/message')
    .map((e) => {
      const d = e.data as { author?: string; content: unknown };
      const text = typeof d.content === 'string' ? d.content : JSON.stringify(d.content);
      return `${d.author ?? 'assistant'}: ${text.slice(0, 40)}`;
    });
}

describe.skipIf(REAL === undefined)(
  REAL === undefined
    ? realFixturesSkipped('openhands')
    : 'OpenHands real trajectories (OpenHands tests/runtime/trajs, MIT; see their SOURCES.md)',
  () => {
    it('every conversation imported, nothing unknown, a second run changes nothing', async () => {
      const w = sourceWith('real');
      const first = await importOnce(w);
      expect(first).toMatchObject({ imported: 4, failed: 0 });
      expect(first.reports).toEqual([]);
      const again = await importOnce(w);
      expect(again).toMatchObject({ imported: 0, updated: 0, failed: 0 });
    });

    it('wrong-initial-state: tool calls by tool_call_id with their results, the finish as the last reply', async () => {
      const w = sourceWith('real');
      await importOnce(w);
      const log = (await readStore(w.data)).get('openhands-wrong-initial-state')!;
      const calls = log.events
        .filter((e) => e.type === 'tool/call')
        .map((e) => (e.data as { name: string }).name);
      expect(calls).toEqual(['str_replace_editor', 'execute_bash', 'str_replace_editor']);
      const results = log.events
        .filter((e) => e.type === 'tool/result')
        .map((e) => e.data as { isError?: boolean });
      expect(results).toHaveLength(3);
      expect(results.every((r) => r.isError === undefined)).toBe(true);
      expect(said(log.events)[0]).toMatch(/^human: /);
      expect(log.events.at(-1)!.type).toBe('assistant/message');
    });

    it('basic-gui-mode: agent_state_changed to awaiting_user_input closes the turn', async () => {
      const w = sourceWith('real');
      await importOnce(w);
      const log = (await readStore(w.data)).get('openhands-basic-gui-mode')!;
      expect(log.events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toEqual([
        { reason: 'completed' },
      ]);
    });
  },
);

describe('OpenHands conversation built from its source', () => {
  it('prompt with an image, thoughts as text, calls and results, condensation, usage per response, cost, title, turn ends', async () => {
    const w = sourceWith('synthetic');
    const summary = await importOnce(w);
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.reports).toEqual([]);
    expect(summary.ignored).toMatchObject({
      'action system': 1,
      'action recall': 1,
      'observation recall': 1,
    });
    const log = (await readStore(w.data)).get(`openhands-${SYNTHETIC}`)!;
    expect(log.header.createdAt).toBe(Date.parse('2026-12-04T11:00:00Z'));
    expect(said(log.events)).toEqual([
      expect.stringMatching(/^human: \[\{"type":"image","ref":"[0-9a-f]+/),
      'assistant: A single pixel. Listing the files:',
      'assistant: ',
      'assistant: ',
      'assistant: It is one pixel; the project has README.',
      'human: Summarize everything.',
      'system: [conversation condensed]',
      'assistant: Done: one pixel, README.md and src.',
      'human: One more thing.',
    ]);
    const results = log.events.filter((e) => e.type === 'tool/result').map((e) => e.data);
    expect(results).toEqual([
      { callId: 'toolu_01', content: 'README.md\nsrc' },
      { callId: 'toolu_02', content: 'Your thought has been logged.' },
      { callId: 'toolu_03', content: 'cat: MISSING: No such file or directory', isError: true },
    ]);
    // Each response once: the second action of a response carries the same running total.
    const usages = log.events
      .filter((e) => e.type === 'assistant/message')
      .map((e) => (e.data as { usage?: unknown }).usage);
    expect(usages).toEqual([
      { input: 200, output: 40, cacheRead: 1000 },
      undefined,
      { input: 100, output: 40, cacheRead: 1200 },
      { input: 200, output: 40, cacheRead: 1200 },
      { input: 100, output: 40, cacheRead: 1000 },
    ]);
    expect(log.events.filter((e) => e.type === 'session/cost').map((e) => e.data)).toEqual([
      { usd: 0.01 },
      { usd: 0.02 },
      { usd: 0.03 },
      { usd: 0.04 },
    ]);
    expect(log.events.filter((e) => e.type === 'session/title').map((e) => e.data)).toEqual([
      { title: 'What is in this picture? Then list the files.' },
      { title: 'Picture and files' },
    ]);
    expect(log.events.find((e) => e.type === 'request/header')!.data).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
    });
    expect(log.events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toEqual([
      { reason: 'completed' },
      { reason: 'completed' },
      { reason: 'error', error: 'RateLimitError' },
    ]);
  });

  it('the conversation cut after any event maps to a prefix of the whole (new events are new files)', async () => {
    const dir = path.join(FIXTURES, 'synthetic', SYNTHETIC);
    const whole = (await mapFolder(dir, Infinity))!;
    const n = (await eventFiles(path.join(dir, 'events'))).length;
    let cuts = 0;
    for (let k = 1; k <= n; k++) {
      const cut = await mapFolder(dir, k);
      // Before the first prompt the folder holds no conversation yet.
      if (cut === undefined) continue;
      cuts++;
      expect(cut.header, `cut at ${k}`).toEqual(whole.header);
      expect(cut.events, `cut at ${k}`).toEqual(whole.events.slice(0, cut.events.length));
    }
    expect(cuts).toBe(n - 2);
  });

  it('a new event file appends to the stored session, never replaces it', async () => {
    const w = workspace('strand-openhands-');
    open.push(w);
    const src = path.join(FIXTURES, 'synthetic', SYNTHETIC);
    const dst = path.join(w.source, SYNTHETIC);
    cpSync(src, dst, { recursive: true, filter: (f) => !/[/\\]events[/\\](1[5-9]|20)\.json$/.test(f) });
    expect((await importOnce(w)).imported).toBe(1);
    for (const name of readdirSync(path.join(src, 'events')).filter((f) => /^(1[5-9]|20)\.json$/.test(f)))
      cpSync(path.join(src, 'events', name), path.join(dst, 'events', name));
    expect(await importOnce(w)).toMatchObject({ imported: 0, updated: 1, replaced: 0, failed: 0 });
  });
});

describe('OpenHands: the ledger digests of a conversation', () => {
  it('are the digests of the files on disk: a conversation touched everywhere (same bytes) is not mapped again', async () => {
    const w = sourceWith('synthetic');
    expect((await importOnce(w)).imported).toBe(1);
    // The mapping hands its own digests of the event files it read to the ledger; had they
    // differed from the files' digests, a touch would look like a change and map again.
    const later = new Date(Date.now() + 60_000);
    const conversation = path.join(w.source, SYNTHETIC);
    for (const name of readdirSync(path.join(conversation, 'events')))
      utimesSync(path.join(conversation, 'events', name), later, later);
    utimesSync(path.join(conversation, 'metadata.json'), later, later);
    expect(await importOnce(w)).toMatchObject({ imported: 0, updated: 0, unchanged: 1, sessions: [] });
    // A changed byte in one event file is a change, found by its digest.
    const last = path.join(conversation, 'metadata.json');
    writeFileSync(last, readFileSync(last, 'utf8').replace('}', ', "note": "edited"}'));
    const edited = await importOnce(w);
    expect(edited.sessions).toHaveLength(1);
  });
});

async function mapFolder(dir: string, keep: number) {
  const w = workspace('strand-openhands-cut-');
  open.push(w);
  const files = await eventFiles(path.join(dir, 'events'));
  const kept = new Set(files.slice(0, keep).map((f) => path.basename(f)));
  const target = path.join(w.source, path.basename(dir));
  cpSync(dir, target, {
    recursive: true,
    filter: (f) => path.basename(path.dirname(f)) !== 'events' || kept.has(path.basename(f)),
  });
  const [unit] = await openhandsImporter.discover(w.source);
  const peek = await openhandsImporter.peek(unit!);
  if (peek.kind !== 'session') throw new Error('not a conversation');
  const mapped = await openhandsImporter.map(unit!, peek);
  if (mapped.kind === 'empty') return undefined;
  if (mapped.kind !== 'sessions') throw new Error(`not mapped: ${mapped.kind}`);
  return mapped.plans[0]!;
}

describe('OpenHands: bad input is a report, never a crash', () => {
  it('a malformed (torn) event file and an unknown action are skipped records; the rest imports', async () => {
    const w = sourceWith('damaged');
    const summary = await importOnce(w);
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.reports.map((r) => [r.kind, r.reason.replace(/\(.*\)$/, '(…)')])).toEqual([
      ['skipped-record', 'unknown action "teleport"'],
      ['skipped-record', '10.json: malformed JSON (…)'],
    ]);
  });

  it('a folder whose first event file is not an OpenHands event is a skipped file', async () => {
    const w = sourceWith('synthetic');
    mkdirSync(path.join(w.source, 'not-openhands', 'events'), { recursive: true });
    writeFileSync(path.join(w.source, 'not-openhands', 'events', '0.json'), '{"hello": "world"}');
    const summary = await importOnce(w);
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.reports.filter((r) => r.kind === 'skipped-file')).toHaveLength(1);
  });
});
