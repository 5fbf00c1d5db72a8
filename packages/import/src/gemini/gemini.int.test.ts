import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
import { GEMINI_WHOLE_TOOL_CALLS, geminiWholeChat } from '../testing/synthetic.js';
import { ASK, at, CHATS, LAYOUTS, SID, STOPPED } from '../testing/gemini-nested.js';

const REWIND = path.join(
  PACKAGE_SRC,
  'gemini',
  'fixtures',
  'rewind',
  'session-2026-05-01T08-00-7e7e7e7e.jsonl',
);
const DELEGATE = path.join(PACKAGE_SRC, 'gemini', 'fixtures', 'delegate');
const A2A = path.join(PACKAGE_SRC, 'gemini', 'fixtures', 'a2a', 'session-2026-05-03T10-00-a2a-serv.jsonl');
const SHARED_SID = '5a5a5a5a-0000-4000-8000-000000000002';
const WHOLE = 'session-2026-03-02T11-00-6b6b6b6b.json';
const RESUMED = path.join(PACKAGE_SRC, 'gemini', 'fixtures', 'bed-0.61.0', 'resume-export');

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
  mkdirSync(path.join(ws.source, 'site', 'chats'), { recursive: true });
});
afterEach(() => ws.dispose());

describe('Gemini chat files', () => {
  it('a row rewritten by id adds only what is new; $rewindTo is reported and takes nothing back', async () => {
    copyFileSync(REWIND, path.join(ws.source, 'site', 'chats', path.basename(REWIND)));
    const summary = await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 1, failed: 0, skipped: 0 });
    expect(summary.reports).toEqual([
      {
        file: expect.stringContaining(path.basename(REWIND)),
        line: 8,
        kind: 'note',
        reason: expect.stringContaining('$rewindTo m3'),
      },
    ]);
    const stored = (await readStore(ws.data)).get('gemini-7e7e7e7e-0000-4000-8000-000000000001')!;
    expect(stored.header).toMatchObject({
      cwd: '/home/dev/site',
      createdAt: Date.parse('2026-05-01T08:00:00.000Z'),
    });
    // A live follower saw the rewound turn: it stays (the prefix law: nothing is taken back).
    expect(dataOf(stored, 'user/message')).toEqual([
      { content: 'Make the header blue', author: 'human' },
      { content: 'Actually make it red', author: 'human' },
      { content: 'Make it green instead', author: 'human' },
    ]);
    const replace = {
      id: 't1',
      name: 'replace',
      arguments: JSON.stringify({ file_path: 'src/header.css', old_string: 'blue', new_string: 'red' }),
    };
    expect(dataOf(stored, 'assistant/message')).toEqual([
      // Thoughts are output spent reasoning: inside output, and named as reasoning.
      { content: 'Done: the header is blue.', usage: { input: 100, output: 15, reasoning: 5 } },
      // m4 written empty (its usage), then again whole: the rewrite adds its text and its call.
      { content: '', usage: { input: 200, output: 25, reasoning: 5 } },
      { content: 'The header is red now.', toolCalls: [replace] },
      { content: 'The header is green.', usage: { input: 300, output: 35, reasoning: 5 } },
    ]);
    expect(dataOf(stored, 'tool/result')).toEqual([{ callId: 't1', content: 'Edited src/header.css' }]);
    // The first prompt titles the session; the summary written at the end wins.
    expect(dataOf<{ title: string }>(stored, 'session/title').map((t) => t.title)).toEqual([
      'Make the header blue',
      'Header colour changes',
    ]);
    expect(dataOf(stored, 'request/header')).toEqual([
      { provider: 'google', model: 'gemini-3-flash-preview' },
    ]);
    expect(importedLogViolations(stored.events)).toEqual([]);
  });

  it('a whole-JSON chat maps its tool calls with their results', async () => {
    writeFileSync(path.join(ws.source, 'site', 'chats', WHOLE), geminiWholeChat());
    await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
    const [stored] = (await readStore(ws.data)).values();
    const calls = dataOf<{ callId: string; name: string }>(stored!, 'tool/call');
    expect(calls).toHaveLength(GEMINI_WHOLE_TOOL_CALLS);
    expect(new Set(calls.map((c) => c.name))).toEqual(new Set(['read_file', 'write_file']));
    const results = dataOf<{ callId: string; content: string }>(stored!, 'tool/result');
    expect(results.map((r) => r.callId)).toEqual(calls.map((c) => c.callId));
    expect(results.every((r) => typeof r.content === 'string' && r.content.length > 0)).toBe(true);
  });

  it('a whole-JSON chat cut by a crash fails alone; prompt history and settings are not chats', async () => {
    const text = geminiWholeChat();
    writeFileSync(
      path.join(ws.source, 'site', 'chats', 'session-cut.json'),
      text.slice(0, Math.floor(text.length / 2)),
    );
    writeFileSync(
      path.join(ws.source, 'site', 'logs.json'),
      JSON.stringify([
        { sessionId: 'x', messageId: 0, type: 'user', message: 'hi', timestamp: '2026-01-01T00:00:00Z' },
      ]),
    );
    writeFileSync(
      path.join(ws.source, 'site', 'checkpoint-a.json'),
      JSON.stringify([{ role: 'user', parts: [{ text: 'hi' }] }]),
    );
    copyFileSync(REWIND, path.join(ws.source, 'site', 'chats', path.basename(REWIND)));
    const summary = await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 1, failed: 1, skipped: 1, files: 3 });
    expect(summary.reports).toContainEqual(
      expect.objectContaining({
        kind: 'failed',
        file: expect.stringContaining('session-cut.json'),
        reason: expect.stringContaining('does not parse'),
      }),
    );
    expect(summary.reports).toContainEqual(
      expect.objectContaining({ kind: 'skipped-file', file: expect.stringContaining('checkpoint-a.json') }),
    );
  });

  it('two chats sharing one sessionId are two sessions; the nested agent’s chat is a child of the person’s, copies are one', async () => {
    copyInto(DELEGATE, path.join(ws.source, 'site'));
    const summary = await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 3, failed: 0, files: 4 });
    // The whole-JSON chat was migrated to JSONL: a copy, reported as such, not a session.
    expect(summary.reports).toEqual([
      expect.objectContaining({
        kind: 'skipped-file',
        file: expect.stringMatching(/09-00-5a5a5a5a\.json$/),
        reason: expect.stringContaining(`session gemini-${SHARED_SID} holds more`),
      }),
    ]);
    const store = await readStore(ws.data);
    const human = store.get(`gemini-${SHARED_SID}`)!;
    expect(human.header.origin).toBeUndefined();
    expect(dataOf(human, 'user/message')).toEqual([{ content: 'Why is checkout slow?', author: 'human' }]);
    expect(dataOf<{ title: string }>(human, 'session/title').map((t) => t.title)).toEqual([
      'Why is checkout slow?',
    ]);
    expect(dataOf<{ content: string }>(human, 'assistant/message').map((m) => m.content)).toEqual([
      'Let me ask the investigator.',
      'The cart query runs once per item; batch it.',
    ]);
    const nested = store.get(`gemini-${SHARED_SID}-n1`)!;
    expect(nested.header).toMatchObject({
      origin: 'subagent',
      parentSession: `gemini-${SHARED_SID}`,
      delegationDepth: 1,
    });
    expect(dataOf(nested, 'subagent/descriptor')).toEqual([
      { version: 2, mode: 'one-shot', label: 'codebase_investigator' },
    ]);
    // The nested chat's prompt is the parent agent's delegation, not a person's.
    expect(dataOf(nested, 'user/message')).toEqual([
      { content: 'Objective: Find why checkout is slow', author: 'agent' },
    ]);
    expect(store.get('gemini-5a5a5a5b-0000-4000-8000-000000000003')).toBeDefined();
    for (const log of store.values()) expect(importedLogViolations(log.events)).toEqual([]);

    const again = await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
    expect(again).toMatchObject({ imported: 0, updated: 0, unchanged: 3, failed: 0 });
    expect(await readStore(ws.data)).toEqual(store);
  });

  it('a distinct chat under the same sessionId without a delegation is a session of its own; growing it re-places nothing else', async () => {
    const chats = path.join(ws.source, 'site', 'chats');
    const main = JSON.parse(
      readFileSync(path.join(DELEGATE, 'chats', 'session-2026-05-02T09-00-5a5a5a5a.json'), 'utf8'),
    ) as {
      messages: Record<string, unknown>[];
    };
    delete main.messages[1]!.toolCalls;
    writeFileSync(path.join(chats, 'session-2026-05-02T09-00-5a5a5a5a.json'), JSON.stringify(main));
    copyFileSync(
      path.join(DELEGATE, 'chats', 'session-2026-05-02T09-01-5a5a5a5a.json'),
      path.join(chats, 'session-2026-05-02T09-01-5a5a5a5a.json'),
    );
    const summary = await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 2, failed: 0, reports: [] });
    const store = await readStore(ws.data);
    expect(store.get(`gemini-${SHARED_SID}-n1`)!.header.origin).toBeUndefined();
    expect(dataOf(store.get(`gemini-${SHARED_SID}`)!, 'user/message')).toEqual([
      { content: 'Why is checkout slow?', author: 'human' },
    ]);
    // The person's chat grows: it is re-read (its sibling is its companion) and stays the main chat.
    main.messages.push({
      id: 'h4',
      timestamp: '2026-05-02T09:05:00.000Z',
      type: 'user',
      content: [{ text: 'Thanks' }],
    });
    writeFileSync(path.join(chats, 'session-2026-05-02T09-00-5a5a5a5a.json'), JSON.stringify(main));
    const grown = await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
    expect(grown).toMatchObject({ imported: 0, updated: 1, replaced: 0, failed: 0 });
    expect(dataOf(store.get(`gemini-${SHARED_SID}-n1`)!, 'user/message')).toEqual(
      dataOf((await readStore(ws.data)).get(`gemini-${SHARED_SID}-n1`)!, 'user/message'),
    );
  });

  it('the context-only chat Gemini CLI 0.61 starts beside a chat it resumes is no session', async () => {
    // As the real Gemini CLI 0.61.0 left them in the bed (a Strand export it resumed, `--resume
    // <session id>`): the resumed chat, continued, and a new chat of the same sessionId that holds
    // only its injected `<session_context>`.
    cpSync(RESUMED, ws.source, { recursive: true });
    const summary = await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 1, skipped: 1, failed: 0 });
    expect(summary.sessions).toEqual([
      {
        id: 'gemini-17ce4b8f-7856-54ff-b87d-2313ea5a1ed8',
        file: expect.stringMatching(/session-2026-12-05T09-00-17ce4b8f\.jsonl$/),
        outcome: 'imported',
      },
    ]);
    expect(summary.reports).toContainEqual({
      file: expect.stringMatching(/session-2026-12-05T23-05-17ce4b8f\.jsonl$/),
      line: null,
      kind: 'skipped-file',
      reason: 'no conversation messages',
    });
    // The resumed chat holds the whole conversation, the prompt given on resume last.
    const stored = (await readStore(ws.data)).get('gemini-17ce4b8f-7856-54ff-b87d-2313ea5a1ed8')!;
    const prompts = dataOf<{ content: unknown; author: string }>(stored, 'user/message')
      .filter((m) => m.author === 'human')
      .map((m) => JSON.stringify(m.content));
    expect(prompts).toEqual([
      expect.stringContaining('Please list the folder.'),
      expect.stringContaining('Which one is the code?'),
      expect.stringContaining('Please go on.'),
    ]);
  });

  it('the a2a-server’s injected <session_context> is system context, never the prompt or the title', async () => {
    copyFileSync(A2A, path.join(ws.source, 'site', 'chats', path.basename(A2A)));
    const summary = await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 1, failed: 0, reports: [] });
    const [stored] = (await readStore(ws.data)).values();
    const messages = dataOf<{ content: string; author: string }>(stored!, 'user/message');
    expect(messages.map((m) => m.author)).toEqual(['system', 'human']);
    expect(messages[0]!.content).toContain('<session_context>');
    expect(dataOf<{ title: string }>(stored!, 'session/title').map((t) => t.title)).toEqual([
      'Add a health endpoint',
    ]);
  });
});

describe('Gemini nested chats under one sessionId', () => {
  for (const [layout, write] of Object.entries(LAYOUTS))
    it(`${layout}: each is the child of the call whose inputs its prompt holds, before or after its start; its prompts are the agent's`, async () => {
      for (const chat of CHATS) {
        const { file, text } = write(chat);
        writeFileSync(path.join(ws.source, 'site', 'chats', file), text);
      }
      const summary = await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
      expect(summary).toMatchObject({ imported: 4, failed: 0, reports: [] });
      const store = await readStore(ws.data);
      const parent = `gemini-${SID}`;
      expect(store.get(parent)!.header.origin).toBeUndefined();
      expect(dataOf(store.get(parent)!, 'user/message')).toEqual([
        { content: 'Which themes are there, and why is the build slow?', author: 'human' },
      ]);

      const help = store.get(`${parent}-a1`)!;
      expect(help.header).toMatchObject({ origin: 'subagent', parentSession: parent, delegationDepth: 1 });
      expect(dataOf(help, 'subagent/descriptor')).toEqual([
        { version: 2, mode: 'one-shot', label: 'cli_help' },
      ]);
      expect(dataOf(help, 'user/message')).toEqual([
        { content: ASK('Which themes ship with Gemini CLI?'), author: 'agent' },
        { content: STOPPED, author: 'agent' },
      ]);

      const investigator = store.get(`${parent}-b1`)!;
      expect(investigator.header).toMatchObject({ origin: 'subagent', parentSession: parent });
      expect(dataOf(investigator, 'subagent/descriptor')).toEqual([
        { version: 2, mode: 'one-shot', label: 'codebase_investigator' },
      ]);

      const unmatched = store.get(`${parent}-c1`)!;
      expect(unmatched.header.origin).toBeUndefined();
      expect(dataOf(unmatched, 'subagent/descriptor')).toEqual([]);
      for (const log of store.values()) expect(importedLogViolations(log.events)).toEqual([]);
    });

  it('a subagent chat of its own (`kind: "subagent"` under `chats/<parent>/`, 0.6x): its prompts are the agent’s too', async () => {
    const dir = path.join(ws.source, 'site', 'chats', SID);
    mkdirSync(dir, { recursive: true });
    const help = CHATS[1]!;
    const rows = [
      {
        sessionId: 'a1a1a1a1-0000-4000-8000-00000000000b',
        projectHash: 'f'.repeat(64),
        startTime: at(help.start),
        kind: 'subagent',
      },
      ...help.messages,
    ];
    writeFileSync(
      path.join(dir, 'a1a1a1a1-0000-4000-8000-00000000000b.jsonl'),
      rows.map((r) => JSON.stringify(r)).join('\n') + '\n',
    );
    await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
    const [child] = (await readStore(ws.data)).values();
    expect(child!.header).toMatchObject({ origin: 'subagent', parentSession: `gemini-${SID}` });
    expect(dataOf<{ author: string }>(child!, 'user/message').map((m) => m.author)).toEqual([
      'agent',
      'agent',
    ]);
  });
});
