import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
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

/**
 * Transcripts the real Qwen Code 0.24.4 wrote in the harness bed (`fixtures/bed/<scenario>/`, the
 * `~/.qwen/projects` folder of each run, as written), and a damaged copy of one.
 */
const BED = path.join(PACKAGE_SRC, 'qwen', 'fixtures', 'bed');
const DAMAGED = path.join(PACKAGE_SRC, 'qwen', 'fixtures', 'damaged');
/** Written from Qwen Code 0.24.4's `ChatRecordingService`: records the bed's runs do not produce. */
const SYNTHETIC = path.join(PACKAGE_SRC, 'qwen', 'fixtures', 'synthetic');
const SYNTHETIC_SID = '5e5e5e5e-0000-4000-8000-000000000001';
// The bed's endpoint reports 120 fresh input tokens, 40 cache reads and 12 output tokens per
// response unless a scenario says otherwise; Qwen Code records them as `usageMetadata`.
const BED_USAGE = { input: 120, cacheRead: 40, output: 12 };

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.dispose());

/** Imports one bed scenario's transcripts; returns the store and the session the person talked to. */
async function importScenario(scenario: string) {
  copyInto(path.join(BED, scenario), ws.source);
  const summary = await importTranscripts({ harness: 'qwen', sourceDir: ws.source, dataDir: ws.data });
  const store = await readStore(ws.data);
  const main = [...store.values()].find((s) => s.header.parentSession === undefined)!;
  for (const log of store.values()) expect(importedLogViolations(log.events)).toEqual([]);
  return { summary, store, main };
}

function sessionIdOf(scenario: string): string {
  const project = readdirSync(path.join(BED, scenario))[0]!;
  return readdirSync(path.join(BED, scenario, project, 'chats'))[0]!.replace(/\.jsonl$/, '');
}

describe('Qwen Code transcripts (written by the real CLI in the bed)', () => {
  it('three resumed prompts are one session of three turns: titled by the first, model and usage per response', async () => {
    const { summary, main } = await importScenario('multi-turn');
    expect(summary).toMatchObject({ imported: 1, failed: 0, skipped: 0 });
    expect(summary.reports).toEqual([]);
    // Telemetry and snapshots are known records with nothing for the log: counted, not reported.
    expect(summary.ignored).toMatchObject({ 'system:ui_telemetry': 3, 'system:attribution_snapshot': 3 });
    const sid = sessionIdOf('multi-turn');
    expect(main.header).toMatchObject({
      id: `qwen-${sid}`,
      source: { harness: 'qwen', sourceId: sid },
      cwd: expect.stringMatching(/strand-bed-qwen-multi-turn-.*\/work$/),
    });
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
    expect(dataOf(main, 'request/header')).toEqual([{ provider: 'openai', model: 'qwen3-coder-plus' }]);
    expect(dataOf(main, 'session/title')).toEqual([{ title: 'Please say hello.' }]);
    // Qwen Code records no turn end: a later prompt closes a turn, the last one stays open.
    expect(dataOf(main, 'turn/end')).toEqual([{ reason: 'completed' }, { reason: 'completed' }]);
  });

  it('tool calls get their results from the tool_result records', async () => {
    const { main } = await importScenario('tool-calls');
    expect(dataOf<{ name: string }>(main, 'tool/call').map((c) => c.name)).toEqual([
      'write_file',
      'edit',
      'run_shell_command',
    ]);
    const results = dataOf<{ callId: string; content: string; isError?: true }>(main, 'tool/result');
    expect(results.map((r) => r.callId)).toEqual(['call_bed_1_0', 'call_bed_2_0', 'call_bed_3_0']);
    expect(results.every((r) => r.isError === undefined)).toBe(true);
    expect(results[2]!.content).toContain('Output: one\nthree');
  });

  it('an @-named image is the prompt’s image; the frame around the file’s content is not the prompt', async () => {
    const { store, main } = await importScenario('image');
    const [prompt] = dataOf<{ content: unknown; author: string }>(main, 'user/message');
    expect(prompt).toEqual({
      author: 'human',
      content: [
        { type: 'text', text: 'What is in this picture? @dot.png' },
        { type: 'image', ref: expect.stringMatching(/^[0-9a-f]{64}$/) },
      ],
    });
    expect(store.size).toBe(1);
    expect(dataOf(main, 'request/header')).toEqual([{ provider: 'openai', model: 'qwen3-vl-plus' }]);
  });

  it('a subagent’s transcript is a child of the person’s session, labelled from its meta file, prompted by the agent', async () => {
    const { summary, store, main } = await importScenario('subagent');
    expect(summary).toMatchObject({ imported: 2, failed: 0 });
    const sid = sessionIdOf('subagent');
    const child = store.get(`qwen-${sid}-agent-general-purpose-call_bed_1_0`)!;
    expect(child.header).toMatchObject({
      parentSession: `qwen-${sid}`,
      origin: 'subagent',
      delegationDepth: 1,
      source: { harness: 'qwen', sourceId: 'general-purpose-call_bed_1_0' },
    });
    expect(child.events[0]).toMatchObject({
      type: 'subagent/descriptor',
      data: { version: 2, mode: 'one-shot', label: 'Count files' },
    });
    expect(dataOf(child, 'user/message')).toEqual([
      { content: 'SUBTASK: count the files in the working folder and report the number.', author: 'agent' },
    ]);
    // A round's text record carries its usage and its calls follow in records of their own; a
    // round without text writes its usage on an empty record, which rides on the round's call.
    expect(dataOf(child, 'assistant/message')).toEqual([
      { content: '', toolCalls: [expect.objectContaining({ name: 'run_shell_command' })], usage: BED_USAGE },
      { content: 'There are 2 files.', usage: BED_USAGE },
    ]);
    // Its records name no model; the meta file does.
    expect(dataOf(child, 'request/header')).toEqual([{ provider: 'openai', model: 'qwen3-coder-plus' }]);
    expect(dataOf<{ content: string }>(main, 'tool/result')).toEqual([
      { callId: 'call_bed_1_0', content: 'There are 2 files.' },
    ]);
  });

  it('a compression is a system marker with the summary, then the reply Qwen Code gives the model', async () => {
    const { main } = await importScenario('compaction');
    expect(dataOf<{ content: string; author: string }>(main, 'user/message').map((m) => m.author)).toEqual([
      'human',
      'system',
      'human',
    ]);
    const marker = dataOf<{ content: string }>(main, 'user/message')[1]!.content;
    expect(marker).toMatch(
      /^\[history compressed: 160 → 67 tokens\]\n\n<state_snapshot>The person said hello\./,
    );
    // `/compress` ran in a process of its own: the acknowledgement follows the marker, before the
    // next prompt, as the model is sent it; it has no usage (no model answered it).
    expect(dataOf(main, 'assistant/message')).toEqual([
      { content: 'Hello!', usage: BED_USAGE },
      { content: 'Got it. Thanks for the additional context!' },
      { content: 'Going on from the snapshot.', usage: BED_USAGE },
    ]);
  });

  it('an automatic compression runs after the turn’s prompt is recorded: the marker follows it', async () => {
    const { main } = await importScenario('compaction-auto');
    const messages = main.events.filter((e) => e.type === 'user/message' || e.type === 'assistant/message');
    expect(messages.map((e) => (e.data as { content: string }).content.slice(0, 30))).toEqual([
      'Please say hello.',
      'Hello!',
      'Please go on.',
      '[history compressed: 990064 → ',
      'Got it. Thanks for the additio',
      'Going on from the snapshot.',
    ]);
    expect(dataOf<{ usage: unknown }>(main, 'assistant/message')[0]!.usage).toEqual({
      input: 990_000,
      output: 5,
    });
  });

  it('a custom command is recorded as its expansion', async () => {
    const { main } = await importScenario('slash-command');
    expect(dataOf(main, 'user/message')).toEqual([
      { content: 'Say hello to Ada politely.', author: 'human' },
    ]);
  });
});

describe('Qwen Code transcripts: records from its source', () => {
  it('titles, slash commands, notifications, mid-turn messages, errors, thoughts and a rewind', async () => {
    copyInto(SYNTHETIC, ws.source);
    const summary = await importTranscripts({ harness: 'qwen', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 2, failed: 0, skipped: 0 });
    expect(summary.reports).toEqual([
      {
        file: expect.stringContaining(SYNTHETIC_SID),
        line: 12,
        kind: 'note',
        reason: expect.stringContaining('rewind'),
      },
    ]);
    const store = await readStore(ws.data);
    const main = store.get(`qwen-${SYNTHETIC_SID}`)!;
    expect(importedLogViolations(main.events)).toEqual([]);
    expect(dataOf(main, 'user/message')).toEqual([
      { content: 'Make the header blue', author: 'human' },
      { content: 'It is green now, not red', author: 'human' },
      { content: '/stats', author: 'system' },
      { content: '<task-notification>\n<status>completed</status>\n</task-notification>', author: 'system' },
      // A rewind takes nothing back: a follower saw the rewound prompt.
      { content: 'Undo that', author: 'human' },
      { content: 'Make it green instead', author: 'human' },
    ]);
    // A message typed while a tool ran joins the open turn: three turns, not four.
    expect(dataOf(main, 'turn/start')).toHaveLength(3);
    const edit = JSON.stringify({ file_path: 'src/header.css', old_string: 'red', new_string: 'blue' });
    expect(dataOf(main, 'assistant/message')).toEqual([
      // Thought parts are not the reply. Thoughts counted apart from candidates (the total says
      // so) are output spent reasoning; counted inside them, they are not added again.
      {
        content: 'Editing.',
        toolCalls: [{ id: 't1', name: 'edit', arguments: edit }],
        usage: { input: 400, cacheRead: 600, output: 70, reasoning: 20 },
      },
      {
        content: 'Done: the header is blue.',
        usage: { input: 200, cacheRead: 1000, output: 30, reasoning: 10 },
      },
      { content: 'Green it is.', usage: { input: 100, cacheRead: 1200, output: 20 } },
    ]);
    expect(dataOf(main, 'tool/result')).toEqual([
      { callId: 't1', content: 'old_string not found in src/header.css', isError: true },
    ]);
    // The first prompt, then each change of the custom title (re-anchored copies are not changes).
    expect(dataOf<{ title: string }>(main, 'session/title').map((t) => t.title)).toEqual([
      'Make the header blue',
      'Header colours',
      'Green header',
    ]);
    expect(summary.ignored).toMatchObject({ 'system:slash_command': 1 });
  });

  it('a parent_session record ahead of the messages makes the session a child of that one', async () => {
    copyInto(SYNTHETIC, ws.source);
    await importTranscripts({ harness: 'qwen', sourceDir: ws.source, dataDir: ws.data });
    const child = (await readStore(ws.data)).get('qwen-5e5e5e5e-0000-4000-8000-000000000002')!;
    expect(child.header).toMatchObject({ parentSession: `qwen-${SYNTHETIC_SID}`, origin: 'subagent' });
    expect(child.events[0]).toMatchObject({ type: 'subagent/descriptor', data: { mode: 'one-shot' } });
    expect(dataOf(child, 'user/message')).toEqual([{ content: 'Check the footer too', author: 'agent' }]);
  });
});

describe('Qwen Code transcripts: bad input', () => {
  it('a malformed line, an unknown record type and subtype, a torn last line: a report each, the rest imported', async () => {
    copyInto(DAMAGED, ws.source);
    const summary = await importTranscripts({ harness: 'qwen', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.reports.map((r) => [r.line, r.kind, r.reason])).toEqual([
      [3, 'skipped-record', expect.stringContaining('malformed JSON')],
      [6, 'skipped-record', expect.stringContaining('record type "hologram"')],
      [9, 'skipped-record', expect.stringContaining('system subtype "quantum_state"')],
      [15, 'skipped-record', 'torn last line (no newline, incomplete JSON)'],
    ]);
    const main = [...(await readStore(ws.data)).values()][0]!;
    expect(dataOf<{ content: string }>(main, 'user/message').map((m) => m.content)).toEqual([
      'Please say hello.',
      'Please say goodbye.',
      'Please say thanks.',
    ]);
    // The torn line was the last reply: two replies remain.
    expect(dataOf(main, 'assistant/message')).toHaveLength(2);
  });

  it('a Claude Code transcript and a JSON file that is no transcript are skipped files, never sessions', async () => {
    const chats = path.join(ws.source, '-home-dev', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(
      path.join(chats, 'claude.jsonl'),
      `${JSON.stringify({
        uuid: '00000000-0000-4000-8000-000000000001',
        parentUuid: null,
        sessionId: '00000000-0000-4000-8000-000000000002',
        type: 'user',
        timestamp: '2026-12-01T00:00:00.000Z',
        message: { role: 'user', content: 'hi' },
      })}\n`,
    );
    writeFileSync(path.join(chats, 'notes.jsonl'), '{"hello": "world"}\n');
    const summary = await importTranscripts({ harness: 'qwen', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 0, failed: 0, skipped: 2 });
    expect(summary.reports.map((r) => r.reason).sort()).toEqual([
      'not a Qwen Code transcript (messages without parts)',
      'not a Qwen Code transcript (no uuid, sessionId and record type)',
    ]);
  });
});
