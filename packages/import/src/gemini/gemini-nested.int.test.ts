import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importTranscripts } from '../run/import-transcripts.js';
import {
  dataOf,
  importedLogViolations,
  readStore,
  workspace,
  type Workspace,
} from '../testing/fixture-dirs.js';

// Synthetic chats shaped as gemini-cli writes a nested agent's (local-executor, Jan 2026): the
// opening prompt is the agent's query template with the call's inputs, a recovery prompt when it
// stops calling tools; the person's chat records a call made without text first only when the
// tool completes, after the nested chat started.
const SID = 'abcdabcd-0000-4000-8000-00000000000a';
const at = (time: string) => `2026-01-10T${time}.000Z`;
const ASK = (question: string) =>
  `Your task is to answer the following question about Gemini CLI:\n<question>\n${question}\n</question>`;
const STOPPED =
  'You have stopped calling tools without finishing. You have one final chance to complete the task with a short grace period. You MUST call `complete_task` immediately with your best answer and explain that your investigation was interrupted. Do not call any other tools.';

type Message = Record<string, unknown>;
const user = (id: string, time: string, text: string): Message => ({
  id,
  timestamp: at(time),
  type: 'user',
  content: [{ text }],
});
const reply = (id: string, time: string, text: string, toolCalls?: Message[]): Message => ({
  id,
  timestamp: at(time),
  type: 'gemini',
  content: text,
  model: 'gemini-3-flash-preview',
  ...(toolCalls === undefined ? {} : { toolCalls }),
});
const delegate = (id: string, time: string, name: string, args: Record<string, string>): Message => ({
  id,
  name,
  args,
  status: 'success',
  timestamp: at(time),
  result: [{ functionResponse: { id, name, response: { output: 'done' } } }],
});

interface Chat {
  readonly name: string;
  readonly start: string;
  readonly messages: Message[];
}

const CHATS: Chat[] = [
  {
    name: '10-00',
    start: '10:00:00',
    messages: [
      user('h1', '10:00:01', 'Which themes are there, and why is the build slow?'),
      // Written when the tool completed (10:01:40), after the nested chat started (10:01:05).
      reply('h2', '10:01:40', '', [
        delegate('d1', '10:01:40', 'delegate_to_agent', {
          agent_name: 'cli_help',
          question: 'Which themes ship with Gemini CLI?',
        }),
      ]),
      // Written when the model asked, before its chat started; the agent as a tool of its own
      // (Jan–Apr 2026).
      reply('h3', '10:03:00', 'Now the build.', [
        delegate('d2', '10:03:00', 'codebase_investigator', { objective: 'Find why the build is slow' }),
      ]),
      reply('h4', '10:04:30', 'Done.'),
    ],
  },
  {
    name: '10-01',
    start: '10:01:05',
    messages: [
      user('a1', '10:01:05', ASK('Which themes ship with Gemini CLI?')),
      reply('a2', '10:01:20', 'There are several.'),
      user('a3', '10:01:21', STOPPED),
      reply('a4', '10:01:30', 'Default, Dracula and others.'),
    ],
  },
  {
    name: '10-03',
    start: '10:03:02',
    messages: [
      user(
        'b1',
        '10:03:02',
        'Your task is to investigate:\n<objective>\nFind why the build is slow\n</objective>',
      ),
      reply('b2', '10:04:00', 'The bundler runs twice.'),
    ],
  },
  {
    // A chat of the same session no call of the person's ran: it stays a session of its own.
    name: '10-05',
    start: '10:05:00',
    messages: [user('c1', '10:05:00', ASK('Something nobody asked')), reply('c2', '10:05:10', 'No idea.')],
  },
];

const meta = (chat: Chat) => ({ sessionId: SID, projectHash: 'f'.repeat(64), startTime: at(chat.start) });

const LAYOUTS = {
  'whole-JSON (.json)': (chat: Chat) => ({
    file: `session-2026-01-10T${chat.name}-abcdabcd.json`,
    text: JSON.stringify({ ...meta(chat), lastUpdated: at(chat.start), messages: chat.messages }),
  }),
  'JSONL (.jsonl)': (chat: Chat) => ({
    file: `session-2026-01-10T${chat.name}-abcdabcd.jsonl`,
    text: [meta(chat), ...chat.messages].map((row) => JSON.stringify(row)).join('\n') + '\n',
  }),
};

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
  mkdirSync(path.join(ws.source, 'site', 'chats'), { recursive: true });
});
afterEach(() => ws.dispose());

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
