import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { discoverTasks } from './discover.js';
import { vscodeGlobalStorage } from './task-importer.js';

/**
 * Sessions the real Cline CLI 3.0.65 wrote (`fixtures/cli-3.0.65/<scenario>/sessions/`, its SDK's
 * format) against a scripted loopback endpoint that reported 160 prompt tokens (40 cached) and 12
 * output tokens per response; task folders of the VS Code extension written from its source
 * (`fixtures/synthetic/`, see SOURCES.md), and damaged copies.
 */
const CLI = path.join(PACKAGE_SRC, 'cline', 'fixtures', 'cli-3.0.65');
const SYNTHETIC = path.join(PACKAGE_SRC, 'cline', 'fixtures', 'synthetic');
const DAMAGED = path.join(PACKAGE_SRC, 'cline', 'fixtures', 'damaged');
const CLI_USAGE = { input: 120, output: 12, cacheRead: 40 };
const NATIVE = '1764835200000';
const XML = '1740000000000';

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.dispose());

async function importFrom(dir: string) {
  copyInto(dir, ws.source);
  const summary = await importTranscripts({ harness: 'cline', sourceDir: ws.source, dataDir: ws.data });
  const store = await readStore(ws.data);
  for (const log of store.values()) expect(importedLogViolations(log.events)).toEqual([]);
  return { summary, store };
}

describe('Cline CLI 3.0.65 sessions (written by the real CLI)', () => {
  it('tool calls get their results, a failed command is an error, usage and model per response', async () => {
    const { summary, store } = await importFrom(path.join(CLI, 'tool-calls'));
    expect(summary).toMatchObject({ imported: 1, failed: 0, skipped: 0, reports: [] });
    const [log] = [...store.values()];
    expect(log!.header).toMatchObject({
      id: 'cline-1796411783836_dvr42',
      source: { harness: 'cline', sourceId: '1796411783836_dvr42' },
      cwd: '/tmp/clinepkg/runs/tool-calls/work',
    });
    expect(dataOf(log!, 'session/title')).toEqual([
      { title: 'Create notes.txt saying hello, then show it.' },
    ]);
    expect(dataOf(log!, 'user/message')).toEqual([
      { content: 'Create notes.txt saying hello, then show it.', author: 'human' },
    ]);
    expect(dataOf<{ name: string }>(log!, 'tool/call').map((c) => c.name)).toEqual([
      'editor',
      'run_commands',
      'run_commands',
    ]);
    const results = dataOf<{ content: string; isError?: boolean }>(log!, 'tool/result');
    expect(results.map((r) => r.isError === true)).toEqual([false, false, true]);
    // The SDK's tool items, as the model is sent them: their JSON text.
    expect(JSON.parse(results[1]!.content)).toEqual([
      { query: 'cat notes.txt', result: 'hello\n', success: true },
    ]);
    expect(results[2]!.content).toContain('Command exited with code 3');
    const assistant = dataOf<{ usage: unknown }>(log!, 'assistant/message');
    expect(assistant).toHaveLength(4);
    for (const message of assistant) expect(message.usage).toEqual(CLI_USAGE);
    expect(dataOf(log!, 'request/header')).toEqual([{ provider: 'openai-compatible', model: 'bed-model' }]);
  });

  it('a spawned agent is a child session: its task is the parent agent prompt', async () => {
    const { summary, store } = await importFrom(path.join(CLI, 'subagent'));
    expect(summary).toMatchObject({ imported: 2, failed: 0, reports: [] });
    const child = store.get('cline-1796411829870_4arcw__agent_1796411832253_s8rmsp')!;
    expect(child.header).toMatchObject({
      parentSession: 'cline-1796411829870_4arcw',
      origin: 'subagent',
      delegationDepth: 1,
    });
    expect(child.events[0]!.type).toBe('subagent/descriptor');
    expect(dataOf(child, 'user/message')).toEqual([{ content: 'List the files here.', author: 'agent' }]);
    expect(dataOf<{ name: string }>(child, 'tool/call').map((c) => c.name)).toEqual(['run_commands']);
    const parent = store.get('cline-1796411829870_4arcw')!;
    expect(dataOf<{ name: string }>(parent, 'tool/call').map((c) => c.name)).toEqual(['spawn_agent']);
  });

  it('imports again unchanged, appends a resumed prompt, replaces a session rewritten otherwise', async () => {
    await importFrom(path.join(CLI, 'one-prompt'));
    const again = await importTranscripts({ harness: 'cline', sourceDir: ws.source, dataDir: ws.data });
    expect(again).toMatchObject({ imported: 0, updated: 0, unchanged: 1 });
    const file = path.join(ws.source, 'sessions', '1796411672330_36v99', '1796411672330_36v99.messages.json');
    const session = JSON.parse(readFileSync(file, 'utf8')) as { messages: unknown[] };
    const before = (await readStore(ws.data)).get('cline-1796411672330_36v99')!.events.length;
    session.messages.push(
      {
        role: 'user',
        content: [{ type: 'text', text: '<user_input mode="act">Please say goodbye.</user_input>' }],
        ts: 1796411690000,
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Goodbye.' }], ts: 1796411691000 },
    );
    writeFileSync(file, JSON.stringify(session, null, 2));
    const appended = await importTranscripts({ harness: 'cline', sourceDir: ws.source, dataDir: ws.data });
    expect(appended).toMatchObject({ updated: 1, replaced: 0 });
    const log = (await readStore(ws.data)).get('cline-1796411672330_36v99')!;
    expect(log.events.length).toBeGreaterThan(before);
    expect(dataOf(log, 'user/message').at(-1)).toEqual({ content: 'Please say goodbye.', author: 'human' });
    // A checkpoint restore drops the later messages: no extension of the stored log.
    session.messages.splice(1);
    writeFileSync(file, JSON.stringify(session, null, 2));
    const rewritten = await importTranscripts({ harness: 'cline', sourceDir: ws.source, dataDir: ws.data });
    expect(rewritten).toMatchObject({ replaced: 1 });
    expect(dataOf((await readStore(ws.data)).get('cline-1796411672330_36v99')!, 'assistant/message')).toEqual(
      [],
    );
  });
});

describe('Cline VS Code task folders (written from the extension source)', () => {
  it('native tool calls: typed text from <task>, <feedback> and <user_message>, images, usage and cost from the UI messages', async () => {
    const { summary, store } = await importFrom(SYNTHETIC);
    expect(summary).toMatchObject({ imported: 3, failed: 0, reports: [] });
    // Context attached to every request and reasoning are known, not conversation.
    expect(summary.ignored).toEqual({ environment_details: 7, thinking: 1 });
    const log = store.get(`cline-${NATIVE}`)!;
    expect(log.header).toMatchObject({
      createdAt: Number(NATIVE),
      source: { harness: 'cline', sourceId: NATIVE },
    });
    expect(dataOf(log, 'session/title')).toEqual([
      { title: 'What does src/app.ts export? Here is a screenshot of the error.' },
    ]);
    const users = dataOf<{ content: unknown; author: string }>(log, 'user/message');
    expect(users.map((u) => u.author)).toEqual(['human', 'human', 'human']);
    expect(users[0]!.content).toEqual([
      { type: 'text', text: 'What does src/app.ts export? Here is a screenshot of the error.' },
      { type: 'image', ref: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(users.slice(1).map((u) => u.content)).toEqual(['Now add a test for it.', 'Use vitest, please.']);
    expect(dataOf(log, 'tool/result').map((r) => (r as { isError?: boolean }).isError === true)).toEqual([
      false,
      true,
      false,
    ]);
    // api_req_started: tokensIn is the fresh input, cache writes and reads apart.
    expect(dataOf<{ usage: unknown }>(log, 'assistant/message').map((m) => m.usage)).toEqual([
      { input: 1200, output: 40, cacheCreation: 1000 },
      { input: 30, output: 25, cacheRead: 1000 },
      { input: 60, output: 30, cacheRead: 1250 },
      { input: 70, output: 12, cacheRead: 1280 },
      { input: 80, output: 50, cacheRead: 1300 },
    ]);
    expect(dataOf<{ usd: number }>(log, 'session/cost').map((c) => c.usd)).toEqual([
      0.0042, 0.0053, 0.0065, 0.007, 0.0079,
    ]);
    expect(dataOf(log, 'request/header')).toEqual([
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      { provider: 'anthropic', model: 'claude-haiku-4-5' },
    ]);
    // "[Response interrupted by user]" ends its turn aborted; the resumption opens another.
    expect(dataOf(log, 'turn/end')).toEqual([{ reason: 'aborted' }]);
  });

  it('a slash command is a marker beside the typed text, which no longer holds it', async () => {
    const { store } = await importFrom(SYNTHETIC);
    const log = store.get('cline-1750000000000')!;
    expect(dataOf(log, 'user/message')).toEqual([
      { content: ' hand the refactor off', author: 'human' },
      { content: '[slash command: new_task]', author: 'system' },
    ]);
    expect(dataOf<{ name: string }>(log, 'tool/call').map((c) => c.name)).toEqual(['new_task']);
  });

  it('XML tool era (no times or models on messages): usage by request order, tool results as system text', async () => {
    const { store } = await importFrom(SYNTHETIC);
    const log = store.get(`cline-${XML}`)!;
    expect(dataOf(log, 'user/message')).toEqual([
      { content: 'list the files in src', author: 'human' },
      { content: "[list_files for 'src'] Result:\n\napp.ts\nutil.ts", author: 'system' },
    ]);
    expect(dataOf<{ usage: unknown }>(log, 'assistant/message').map((m) => m.usage)).toEqual([
      { input: 900, output: 35, cacheCreation: 800 },
      { input: 20, output: 28, cacheRead: 800 },
    ]);
    // Times come from the UI's requests when the messages carry none.
    expect(log.events.filter((e) => e.type === 'assistant/message').map((e) => e.time)).toEqual([
      Number(XML) + 500,
      Number(XML) + 2500,
    ]);
  });
});

describe('damaged Cline files', () => {
  it('a truncated history fails, a non-array is skipped, unknown blocks and roles are reported once each', async () => {
    const { summary, store } = await importFrom(DAMAGED);
    expect(summary).toMatchObject({ imported: 1, failed: 1 });
    const reasons = summary.reports.map((r) => `${r.kind}: ${r.reason}`);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^failed: API history does not parse \(truncated by a crash\?\)/),
        'skipped-file: not a Cline API history (not an array)',
        expect.stringMatching(/^note: ui_messages\.json left out: /),
        'skipped-record: unknown user content block "video"',
        'skipped-record: unknown message role "tool"',
        'skipped-record: message 3: not an object',
        'skipped-record: unknown assistant content block "hologram"',
      ]),
    );
    expect(dataOf(store.get('cline-1764900000002')!, 'assistant/message')).toEqual([{ content: 'Hi.' }]);
  });

  it('the UI messages are companions found by name beside the history; a task without them still imports', async () => {
    copyInto(SYNTHETIC, ws.source);
    const units = await discoverTasks(ws.source);
    expect(units.map((u) => path.relative(ws.source, u.file))).toEqual([
      `tasks/${XML}/api_conversation_history.json`,
      'tasks/1750000000000/api_conversation_history.json',
      `tasks/${NATIVE}/api_conversation_history.json`,
    ]);
    expect(units[2]!.companions.map((c) => path.basename(c))).toEqual([
      'ui_messages.json',
      'task_metadata.json',
    ]);
    rmSync(path.join(ws.source, 'tasks', XML, 'ui_messages.json'));
    const summary = await importTranscripts({ harness: 'cline', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 3, failed: 0 });
  });
});

describe('default folders', () => {
  it("VS Code's globalStorage of the extension, per OS", () => {
    expect(vscodeGlobalStorage('/home/a', 'saoudrizwan.claude-dev', 'linux')).toBe(
      '/home/a/.config/Code/User/globalStorage/saoudrizwan.claude-dev',
    );
    expect(vscodeGlobalStorage('/Users/a', 'saoudrizwan.claude-dev', 'darwin')).toBe(
      '/Users/a/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev',
    );
    expect(vscodeGlobalStorage('C:/Users/a', 'rooveterinaryinc.roo-cline', 'win32')).toBe(
      path.join(
        'C:/Users/a',
        'AppData',
        'Roaming',
        'Code',
        'User',
        'globalStorage',
        'rooveterinaryinc.roo-cline',
      ),
    );
  });
});
