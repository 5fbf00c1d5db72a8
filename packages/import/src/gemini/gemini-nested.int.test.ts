import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importTranscripts } from '../run/import-transcripts.js';
import { ASK, at, CHATS, LAYOUTS, SID, STOPPED } from '../testing/gemini-nested.js';
import {
  dataOf,
  importedLogViolations,
  readStore,
  workspace,
  type Workspace,
} from '../testing/fixture-dirs.js';

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
