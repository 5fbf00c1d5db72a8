import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkLogInvariants } from '@strand/session';
import { importTranscripts } from '../run/import-transcripts.js';
import {
  PACKAGE_SRC,
  REAL_FIXTURES,
  dataOf,
  readStore,
  workspace,
  type Workspace,
} from '../testing/fixture-dirs.js';

const REWIND = path.join(
  PACKAGE_SRC,
  'gemini',
  'fixtures',
  'rewind',
  'session-2026-05-01T08-00-7e7e7e7e.jsonl',
);
const WHOLE = 'Mai0313__VibeCodingTracker__test_conversation_gemini@894772f.json';

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
  mkdirSync(path.join(ws.source, 'site', 'chats'), { recursive: true });
});
afterEach(() => ws.dispose());

describe('Gemini chat files', () => {
  it('$rewindTo drops the rewound message and everything after it; rows rewritten by id keep one message', async () => {
    copyFileSync(REWIND, path.join(ws.source, 'site', 'chats', path.basename(REWIND)));
    const summary = await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 1, failed: 0, skipped: 0, reports: [] });
    const stored = (await readStore(ws.data)).get('gemini-7e7e7e7e-0000-4000-8000-000000000001')!;
    expect(stored.header).toMatchObject({
      cwd: '/home/dev/site',
      createdAt: Date.parse('2026-05-01T08:00:00.000Z'),
    });
    expect(dataOf(stored, 'user/message')).toEqual([
      { content: 'Make the header blue', author: 'human' },
      { content: 'Make it green instead', author: 'human' },
    ]);
    expect(JSON.stringify(stored.events)).not.toContain('red');
    expect(dataOf(stored, 'assistant/message')).toEqual([
      { content: 'Done: the header is blue.', usage: { input: 100, output: 15 } },
      { content: 'The header is green.', usage: { input: 300, output: 35 } },
    ]);
    // The first prompt titles the session; the summary written at the end wins.
    expect(dataOf<{ title: string }>(stored, 'session/title').map((t) => t.title)).toEqual([
      'Make the header blue',
      'Header colour changes',
    ]);
    expect(dataOf(stored, 'request/header')).toEqual([
      { provider: 'google', model: 'gemini-3-flash-preview' },
    ]);
    expect(checkLogInvariants(stored.events, { closedTurns: true })).toEqual([]);
  });

  it('a whole-JSON chat maps its tool calls with their results', async () => {
    copyFileSync(path.join(REAL_FIXTURES, 'gemini', WHOLE), path.join(ws.source, 'site', 'chats', WHOLE));
    await importTranscripts({ harness: 'gemini', sourceDir: ws.source, dataDir: ws.data });
    const [stored] = (await readStore(ws.data)).values();
    const calls = dataOf<{ callId: string; name: string }>(stored!, 'tool/call');
    expect(calls).toHaveLength(7);
    expect(new Set(calls.map((c) => c.name))).toEqual(new Set(['read_file', 'write_file']));
    const results = dataOf<{ callId: string; content: string }>(stored!, 'tool/result');
    expect(results.map((r) => r.callId)).toEqual(calls.map((c) => c.callId));
    expect(results.every((r) => typeof r.content === 'string' && r.content.length > 0)).toBe(true);
  });

  it('a whole-JSON chat cut by a crash fails alone; prompt history and settings are not chats', async () => {
    const text = readFileSync(path.join(REAL_FIXTURES, 'gemini', WHOLE), 'utf8');
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
});
