import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
import { copilotImporter } from './copilot-importer.js';

/**
 * Session logs the real GitHub Copilot CLI 1.0.102 wrote in the harness bed
 * (`fixtures/bed/<scenario>/`: each session's `events.jsonl` and `workspace.yaml`, as written),
 * a damaged copy of one, and synthetic logs of records the bed's runs do not produce, written
 * from the event schema the npm package ships (`fixtures/synthetic/`, see the README).
 */
const FIXTURES = path.join(PACKAGE_SRC, 'copilot', 'fixtures');
const BED = path.join(FIXTURES, 'bed');
const SYNTHETIC_SID = '5e5e5e5e-0000-4000-8000-00000000c001';
const FLAT_SID = '5e5e5e5e-0000-4000-8000-00000000c002';
// The bed's endpoint reports 120 fresh input tokens, 40 cache reads and 12 output tokens per
// response; Copilot CLI logs `inputTokens: 160` (cache reads included) and `cacheReadTokens: 40`.
const BED_USAGE = { input: 120, cacheRead: 40, output: 12 };

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.dispose());

async function importFrom(dir: string) {
  copyInto(dir, ws.source);
  const summary = await importTranscripts({ harness: 'copilot', sourceDir: ws.source, dataDir: ws.data });
  const store = await readStore(ws.data);
  for (const log of store.values()) expect(importedLogViolations(log.events)).toEqual([]);
  const main = [...store.values()].find((s) => s.header.parentSession === undefined)!;
  return { summary, store, main };
}

const sessionIdOf = (scenario: string): string =>
  readdirSync(path.join(BED, scenario)).find((name) => !name.startsWith('.'))!;

describe('GitHub Copilot CLI session logs (written by the real CLI in the bed)', () => {
  it('three resumed prompts are one session of three closed turns: titled by the first, model and usage per response', async () => {
    const { summary, main } = await importFrom(path.join(BED, 'multi-turn'));
    expect(summary).toMatchObject({ imported: 1, failed: 0, skipped: 0 });
    expect(summary.reports).toEqual([]);
    // Bookkeeping the mapping knows and leaves out: counted, not reported.
    expect(summary.ignored).toMatchObject({
      'session.resume': 2,
      'system.message': 1,
      'session.shutdown': 3,
    });
    const sid = sessionIdOf('multi-turn');
    expect(main.header).toMatchObject({
      id: `copilot-${sid}`,
      source: { harness: 'copilot', sourceId: sid },
      cwd: expect.stringMatching(/strand-bed-copilot-multi-turn-.*\/work$/),
    });
    // The typed prompts (`content`), not what the model was sent (`transformedContent`, with the
    // `<current_datetime>` line ahead).
    expect(dataOf(main, 'user/message')).toEqual([
      { content: 'Please say hello.', author: 'human' },
      { content: 'Please say goodbye.', author: 'human' },
      { content: 'Please say thanks.', author: 'human' },
    ]);
    expect(dataOf(main, 'assistant/message')).toEqual([
      { content: 'Hello there!', usage: BED_USAGE },
      { content: 'Goodbye.', usage: BED_USAGE },
      { content: 'Thank you!', usage: BED_USAGE },
    ]);
    expect(dataOf(main, 'request/header')).toEqual([{ provider: 'anthropic', model: 'claude-sonnet-4.5' }]);
    expect(dataOf(main, 'session/title')).toEqual([{ title: 'Please say hello.' }]);
    // The round that calls no tool ends the person's turn, so even the last turn is closed.
    expect(dataOf(main, 'turn/end')).toEqual([
      { reason: 'completed' },
      { reason: 'completed' },
      { reason: 'completed' },
    ]);
  });

  it('tool calls come from the assistant message, their results from tool.execution_complete', async () => {
    const { main } = await importFrom(path.join(BED, 'tool-calls'));
    expect(dataOf<{ name: string }>(main, 'tool/call').map((c) => c.name)).toEqual([
      'create',
      'edit',
      'bash',
      'bash',
    ]);
    const results = dataOf<{ content: string; isError?: boolean }>(main, 'tool/result');
    expect(results).toHaveLength(4);
    expect(results[2]!.content).toBe('one\nthree\n<shellId: 0 completed with exit code 0>');
    // A command that exits 1 is a successful tool run (`success: true`): its output says so.
    expect(results[3]).toEqual({
      callId: expect.any(String),
      content: 'cat: missing.txt: No such file or directory\n<shellId: 1 completed with exit code 1>',
    });
  });

  it('an attached image is read from the binary asset written ahead of the prompt', async () => {
    const { main, store } = await importFrom(path.join(BED, 'image'));
    const [prompt] = dataOf<{ content: unknown }>(main, 'user/message');
    expect(prompt!.content).toEqual([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image', ref: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(store.size).toBe(1);
  });

  it('a task subagent, logged inline, is a child session with a descriptor and its own usage', async () => {
    const { summary, store, main } = await importFrom(path.join(BED, 'subagent'));
    expect(summary).toMatchObject({ imported: 2, failed: 0 });
    const sid = sessionIdOf('subagent');
    const child = [...store.values()].find((s) => s.header.parentSession !== undefined)!;
    expect(child.header).toMatchObject({
      id: `copilot-${sid}-agent-call_bed_1_0`,
      parentSession: `copilot-${sid}`,
      origin: 'subagent',
      source: { harness: 'copilot', sourceId: 'call_bed_1_0' },
    });
    expect(child.events[0]).toMatchObject({
      type: 'subagent/descriptor',
      data: { version: 2, mode: 'one-shot', label: 'Count files' },
    });
    expect(dataOf(child, 'user/message')).toEqual([
      { content: 'SUBTASK: count the files in the working folder and report the number.', author: 'agent' },
    ]);
    expect(dataOf(child, 'assistant/message').map((m) => m.usage)).toEqual([BED_USAGE, BED_USAGE]);
    expect(dataOf(child, 'turn/end')).toEqual([{ reason: 'completed' }]);
    // The parent keeps the task call and its result (the subagent's answer).
    expect(dataOf(main, 'tool/result')).toEqual([{ callId: 'call_bed_1_0', content: 'There are 2 files.' }]);
    expect(dataOf(main, 'assistant/message').map((m) => m.usage)).toEqual([BED_USAGE, BED_USAGE]);
  });

  it('/compact is a marker with the summary; its model call counts once, on the next response', async () => {
    const { main } = await importFrom(path.join(BED, 'compaction'));
    const notes = dataOf<{ content: string; author: string }>(main, 'user/message').filter(
      (m) => m.author === 'system',
    );
    expect(notes).toEqual([
      {
        content: expect.stringMatching(
          /^\[Copilot CLI: history compacted: \d+ → \d+ tokens\]\n\n<summary>The person said hello\.<\/summary>$/,
        ),
        author: 'system',
      },
    ]);
    expect(dataOf(main, 'assistant/message').map((m) => m.usage)).toEqual([
      BED_USAGE,
      { input: 240, cacheRead: 80, output: 24 },
    ]);
  });

  it('an interrupted turn ends interrupted; the resumed prompt starts the next', async () => {
    const { main } = await importFrom(path.join(BED, 'interrupt'));
    expect(dataOf(main, 'turn/end')).toEqual([{ reason: 'interrupted' }, { reason: 'completed' }]);
    expect(dataOf(main, 'assistant/message')).toEqual([{ content: 'Hi.', usage: BED_USAGE }]);
  });

  it('a resumed session appends to its log: the re-import extends the stored session, nothing replaced', async () => {
    const sid = sessionIdOf('multi-turn');
    const log = path.join(ws.source, sid, 'events.jsonl');
    copyInto(path.join(BED, 'multi-turn'), ws.source);
    const whole = readFileSync(log, 'utf8');
    // The log as the first run left it: up to the second run's session.resume.
    writeFileSync(log, whole.slice(0, whole.indexOf('{"type":"session.resume"')));
    const first = await importTranscripts({ harness: 'copilot', sourceDir: ws.source, dataDir: ws.data });
    expect(first).toMatchObject({ imported: 1, failed: 0 });
    const before = (await readStore(ws.data)).get(`copilot-${sid}`)!.events.length;
    writeFileSync(log, whole);
    const second = await importTranscripts({ harness: 'copilot', sourceDir: ws.source, dataDir: ws.data });
    expect(second).toMatchObject({ imported: 0, updated: 1, replaced: 0, failed: 0 });
    const after = (await readStore(ws.data)).get(`copilot-${sid}`)!;
    expect(after.events.length).toBeGreaterThan(before);
    expect(dataOf(after, 'user/message')).toHaveLength(3);
    const third = await importTranscripts({ harness: 'copilot', sourceDir: ws.source, dataDir: ws.data });
    expect(third).toMatchObject({ imported: 0, updated: 0, unchanged: 1 });
  });
});

describe('GitHub Copilot CLI records the bed does not produce (synthetic, from the schema)', () => {
  it('maps a named session, failed tools, tool images, steering, errors, notifications, skills and a failed subagent', async () => {
    const { summary, store } = await importFrom(path.join(FIXTURES, 'synthetic'));
    expect(summary).toMatchObject({ imported: 3, failed: 0, skipped: 0 });
    expect(summary.reports).toEqual([]);
    const main = store.get(`copilot-${SYNTHETIC_SID}`)!;
    // `user_named: true` in workspace.yaml: the person's name is the title, not the first prompt.
    expect(dataOf(main, 'session/title')).toEqual([{ title: 'Site check: footer' }]);
    expect(dataOf(main, 'user/message')).toEqual([
      { content: 'Please check the site.', author: 'human' },
      { content: 'Also the footer.', author: 'human' },
      { content: 'Background task footer finished.', author: 'system' },
      { content: 'Try again please.', author: 'human' },
      { content: '/deploy', author: 'system' },
    ]);
    const results = dataOf<{ content: unknown; isError?: boolean }>(main, 'tool/result');
    expect(results[0]).toEqual({ callId: 't1', content: 'Path does not exist', isError: true });
    expect(results[1]!.content).toEqual([
      { type: 'text', text: 'Viewed image file successfully.' },
      { type: 'image', ref: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    // `inputTokens` holds the cache reads and writes; a repeated `assistant.usage` is not counted again.
    expect(dataOf(main, 'assistant/message')[0]!.usage).toEqual({
      input: 300,
      output: 50,
      cacheRead: 600,
      cacheCreation: 100,
      reasoning: 20,
    });
    // A steering message joins the open turn; the session error closes it as an error.
    expect(dataOf(main, 'turn/start')).toHaveLength(2);
    expect(dataOf(main, 'turn/end')).toEqual([
      { reason: 'error', error: '500 upstream error' },
      { reason: 'completed' },
    ]);
    const child = store.get(`copilot-${SYNTHETIC_SID}-agent-t3`)!;
    expect(dataOf(child, 'turn/end')).toEqual([{ reason: 'error', error: 'model limit reached' }]);
    expect(dataOf(child, 'request/header')).toEqual([{ provider: 'openai', model: 'claude-haiku-4.5' }]);
  });

  it('reads the flat <id>.jsonl of versions before the session folders', async () => {
    const { store } = await importFrom(path.join(FIXTURES, 'synthetic'));
    const flat = store.get(`copilot-${FLAT_SID}`)!;
    expect(dataOf(flat, 'user/message')).toEqual([{ content: 'What is in README?', author: 'human' }]);
    expect(dataOf(flat, 'assistant/message')).toEqual([
      { content: 'A title.', usage: { input: 900, output: 40 } },
    ]);
    // Through GitHub Copilot's own routing (`isByok: false`) the provider is GitHub Copilot.
    expect(dataOf(flat, 'request/header')).toEqual([{ provider: 'github-copilot', model: 'gpt-4.1' }]);
  });
});

describe('damaged GitHub Copilot CLI logs', () => {
  it('a malformed line, an unknown record type and a torn last line are reported, never a crash; another harness’s file is skipped', async () => {
    const { summary, main } = await importFrom(path.join(FIXTURES, 'damaged'));
    // Three records passed over and one file.
    expect(summary).toMatchObject({ imported: 1, failed: 0, skipped: 4 });
    const reasons = summary.reports.map((r) => `${r.kind}: ${r.reason}`);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^skipped-record: malformed JSON/),
        expect.stringMatching(/^skipped-record: .*record type "session\.hologram"/),
        expect.stringMatching(/^skipped-record: torn last line/),
        expect.stringMatching(/^skipped-file: not a Copilot CLI session log/),
      ]),
    );
    // What is readable still maps: the three prompts and answers.
    expect(dataOf(main, 'assistant/message')).toHaveLength(3);
  });

  it('an empty log, or one that is not Copilot CLI’s, is a skipped file', async () => {
    mkdirSync(path.join(ws.source, 'a'), { recursive: true });
    writeFileSync(path.join(ws.source, 'a', 'events.jsonl'), '');
    writeFileSync(
      path.join(ws.source, 'b.jsonl'),
      '{"type":"session.start","data":{"sessionId":"x","producer":"other-agent"}}\n',
    );
    const summary = await importTranscripts({ harness: 'copilot', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 0, failed: 0, skipped: 2 });
  });
});

describe('where Copilot CLI keeps its sessions', () => {
  it('~/.copilot/session-state, or COPILOT_HOME/session-state', () => {
    const saved = process.env.COPILOT_HOME;
    try {
      delete process.env.COPILOT_HOME;
      expect(copilotImporter.defaultDir('/home/ada')).toBe('/home/ada/.copilot/session-state');
      process.env.COPILOT_HOME = '/srv/copilot';
      expect(copilotImporter.defaultDir('/home/ada')).toBe('/srv/copilot/session-state');
    } finally {
      if (saved === undefined) delete process.env.COPILOT_HOME;
      else process.env.COPILOT_HOME = saved;
    }
  });
});
