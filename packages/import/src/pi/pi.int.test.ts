import { appendFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSourceDir } from '../harnesses.js';
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

const FIXTURES = path.join(PACKAGE_SRC, 'pi', 'fixtures');
const TREE_ID = 'pi-019a0000-0000-7000-8000-00000000aaaa';
const V1_ID = 'pi-6f6f6f6f-0000-4000-8000-000000000001';
const DAMAGED_ID = 'pi-019a0000-0000-7000-8000-00000000dddd';

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.dispose());

const run = (): ReturnType<typeof importTranscripts> =>
  importTranscripts({ harness: 'pi', sourceDir: ws.source, dataDir: ws.data });

/** The one session file of a fixture folder. */
function fileOf(set: string): string {
  const dir = path.join(FIXTURES, set, '--home-dev-site--');
  return path.join(dir, readdirSync(dir)[0]!);
}

describe('pi session files', () => {
  it('the default folder is ~/.pi/agent/sessions', () => {
    expect(defaultSourceDir('pi', '/home/dev')).toBe('/home/dev/.pi/agent/sessions');
  });

  it('a tree of entries maps in file order: authors, tools with images and errors, branches, compaction, titles, models and usage', async () => {
    copyInto(path.join(FIXTURES, 'tree'), ws.source);
    const summary = await run();
    expect(summary).toMatchObject({ imported: 1, failed: 0, skipped: 0, reports: [] });
    expect(summary.ignored).toEqual({ thinking_level_change: 1, custom: 1, label: 1 });
    const log = (await readStore(ws.data)).get(TREE_ID)!;
    expect(log.header).toMatchObject({
      cwd: '/home/dev/site',
      createdAt: Date.parse('2026-05-01T08:00:00.000Z'),
      source: { harness: 'pi', sourceId: '019a0000-0000-7000-8000-00000000aaaa' },
    });
    expect(importedLogViolations(log.events)).toEqual([]);
    const users = dataOf<{ content: unknown; author: string }>(log, 'user/message');
    expect(users.map((u) => [u.author, typeof u.content === 'string' ? u.content : 'blocks'])).toEqual([
      ['human', 'Make the header blue'],
      // `!git status`: the person ran it; the model reads its output as context.
      ['system', '$ git status --short (exit 0)\n M src/header.css\n'],
      // An extension's custom_message.
      ['system', 'Open todos: 1'],
      ['human', 'blocks'],
      // `/tree` back to an earlier answer: the branch point is named, the branch left summarised.
      ['system', '[pi: a new branch from entry e0000008]'],
      [
        'system',
        '[pi: summary of the branch left]\n\nThe person asked to retry with a screenshot; the answer was cut.',
      ],
      ['human', 'Make it green instead'],
      ['system', '[pi: context compacted from 180000 tokens]\n\n## Goal\nHeader colour.'],
      ['human', 'Thanks'],
    ]);
    const read = {
      id: 'toolu_1',
      name: 'read',
      arguments: JSON.stringify({ path: 'src/header.css' }),
    };
    const assistants = dataOf<Record<string, unknown>>(log, 'assistant/message');
    // Thinking is left out; pi's usage is already uncached input, cache reads and writes apart.
    expect(assistants[0]).toEqual({
      content: 'Reading the file.',
      toolCalls: [read],
      usage: { input: 100, output: 20, cacheCreation: 10, cacheRead: 50 },
    });
    expect(assistants.map((a) => a.content)).toEqual([
      'Reading the file.',
      '',
      'The edit failed; the file has no red.',
      'Looking at the',
      'The header is green.',
      'You are welcome.',
    ]);
    const results = dataOf<{ callId: string; content: unknown; isError?: boolean }>(log, 'tool/result');
    expect(results[0]!.content).toEqual([
      { type: 'text', text: 'h1 { color: red }' },
      { type: 'image', ref: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(results[1]).toEqual({
      callId: 'toolu_2',
      content: 'Could not find the exact text',
      isError: true,
    });
    // The person's rename (`/name`) titles the session after the first prompt did.
    expect(dataOf<{ title: string }>(log, 'session/title').map((t) => t.title)).toEqual([
      'Make the header blue',
      'Header colour',
    ]);
    expect(dataOf(log, 'request/header')).toEqual([
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      { provider: 'openai', model: 'gpt-5.1' },
    ]);
    // Escape ends a turn aborted; a failed response followed by pi's retry ends it completed.
    expect(dataOf<{ reason: string }>(log, 'turn/end').map((e) => e.reason)).toEqual([
      'completed',
      'aborted',
      'completed',
      'completed',
    ]);
  });

  it('a v1 file (no entry ids) maps in file order; a v2 hookMessage is context, not a prompt', async () => {
    copyInto(path.join(FIXTURES, 'v1'), ws.source);
    const summary = await run();
    expect(summary).toMatchObject({ imported: 1, failed: 0, reports: [] });
    const log = (await readStore(ws.data)).get(V1_ID)!;
    expect(importedLogViolations(log.events)).toEqual([]);
    expect(dataOf<{ content: string; author: string }>(log, 'user/message')).toEqual([
      { content: 'List the files', author: 'human' },
      { content: 'Remember the tests.', author: 'system' },
      { content: '[pi: context compacted from 1200 tokens]\n\nListed two files.', author: 'system' },
      { content: 'Thanks', author: 'human' },
    ]);
    expect(dataOf(log, 'tool/result')).toEqual([{ callId: 'toolu_a', content: 'a.txt\nb.txt' }]);
  });

  it('pi migrating a v1 file to v3 (rewritten whole, ids added, hookMessage renamed) changes nothing imported', async () => {
    copyInto(path.join(FIXTURES, 'v1'), ws.source);
    await run();
    const file = path.join(ws.source, '--home-dev-site--', path.basename(fileOf('v1')));
    // As `migrateV1ToV2` and `migrateV2ToV3` of pi's session-manager do, then `_rewriteFile`.
    let previous: string | null = null;
    const migrated = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((text, index) => {
        const entry = JSON.parse(text) as Record<string, unknown>;
        if (entry.type === 'session') return { ...entry, version: 3 };
        const id = `m000000${index.toString(16)}`;
        const { firstKeptEntryIndex: _, ...rest } = entry;
        const message = rest.message as Record<string, unknown> | undefined;
        const out = {
          ...rest,
          id,
          parentId: previous,
          ...(message?.role === 'hookMessage' ? { message: { ...message, role: 'custom' } } : {}),
        };
        previous = id;
        return out;
      });
    writeFileSync(file, migrated.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const again = await run();
    expect(again).toMatchObject({ imported: 0, updated: 0, replaced: 0, unchanged: 1, failed: 0 });
  });

  it('bad lines are reports, never a crash: malformed JSON, an unknown entry type and role, a duplicate id, a torn last line', async () => {
    copyInto(path.join(FIXTURES, 'damaged'), ws.source);
    const summary = await run();
    expect(summary).toMatchObject({ imported: 1, failed: 0, skipped: 5 });
    expect(summary.reports.map((r) => [r.line, r.kind, r.reason])).toEqual([
      [3, 'skipped-record', expect.stringContaining('malformed JSON')],
      [4, 'skipped-record', 'unknown entry type "future_entry"'],
      [5, 'skipped-record', 'unknown message role "robot"'],
      [7, 'skipped-record', 'duplicate entry id d0000005'],
      [8, 'skipped-record', 'torn last line (no newline, incomplete JSON)'],
    ]);
    const log = (await readStore(ws.data)).get(DAMAGED_ID)!;
    expect(dataOf(log, 'assistant/message')).toEqual([{ content: 'Hi.', usage: { input: 5, output: 1 } }]);
  });

  it('the torn line completed later appends; an unchanged folder is not read again', async () => {
    copyInto(path.join(FIXTURES, 'damaged'), ws.source);
    await run();
    const file = path.join(ws.source, '--home-dev-site--', path.basename(fileOf('damaged')));
    appendFileSync(file, '","timestamp":1777716006000}}\n');
    const grown = await run();
    expect(grown).toMatchObject({ imported: 0, updated: 1, replaced: 0, failed: 0 });
    const log = (await readStore(ws.data)).get(DAMAGED_ID)!;
    expect(dataOf(log, 'user/message').at(-1)).toEqual({ content: 'Bye', author: 'human' });
    const again = await run();
    expect(again).toMatchObject({ imported: 0, updated: 0, unchanged: 1, failed: 0 });
  });

  it('files are recognised by content; symlinks below the root are not followed', async () => {
    const dir = path.join(ws.source, '--home-dev-site--');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'notes.jsonl'), '{"type":"user","sessionId":"x"}\n');
    writeFileSync(path.join(dir, 'empty.jsonl'), '');
    const outside = path.join(ws.root, 'outside');
    copyInto(path.join(FIXTURES, 'tree'), outside);
    symlinkSync(path.join(outside, '--home-dev-site--'), path.join(ws.source, 'linked'));
    symlinkSync(fileOf('v1'), path.join(dir, 'linked.jsonl'));
    const summary = await run();
    expect(summary).toMatchObject({ imported: 0, failed: 0, skipped: 2 });
    expect(summary.reports.map((r) => [path.basename(r.file), r.kind, r.reason])).toEqual([
      ['empty.jsonl', 'skipped-file', expect.stringContaining('empty file')],
      ['notes.jsonl', 'skipped-file', 'not a pi session file (no session header)'],
    ]);
  });

  it('a fork (`/fork`, `--fork`) holds the path it copied: it imports whole, its own session', async () => {
    copyInto(path.join(FIXTURES, 'tree'), ws.source);
    copyInto(path.join(FIXTURES, 'fork'), ws.source);
    const summary = await run();
    expect(summary).toMatchObject({ imported: 2, failed: 0 });
    const fork = (await readStore(ws.data)).get('pi-019a0000-0000-7000-8000-00000000bbbb')!;
    expect(fork.header.parentSession).toBeUndefined();
    expect(dataOf<{ content: string }>(fork, 'user/message').map((u) => u.content)).toEqual([
      'Make the header blue',
      'Now make it bold',
    ]);
  });
});

describe('what pi 0.73.1 wrote in the bed (committed)', () => {
  it('every scenario imports with nothing unknown; the image, the expanded prompt template, the failed command, the interrupted turn and the compaction are there', async () => {
    copyInto(path.join(FIXTURES, 'bed-0.73.1'), ws.source);
    const summary = await run();
    expect(summary).toMatchObject({ imported: 7, failed: 0, skipped: 0, reports: [] });
    const logs = [...(await readStore(ws.data)).values()];
    for (const log of logs) expect(importedLogViolations(log.events)).toEqual([]);
    const users = logs.flatMap((log) => dataOf<{ content: unknown; author: string }>(log, 'user/message'));
    // `/greet Ada` is stored as pi sent it: the template expanded.
    expect(users).toContainEqual({ content: 'Say hello to Ada politely.', author: 'human' });
    // `@dot.png`: pi names the file in the text and sends the picture beside it.
    expect(users).toContainEqual({
      content: [
        { type: 'text', text: expect.stringContaining('What is in this picture?') },
        { type: 'image', ref: expect.stringMatching(/^[0-9a-f]{64}$/) },
      ],
      author: 'human',
    });
    expect(users.filter((u) => u.author === 'system').map((u) => String(u.content).split('\n')[0])).toEqual([
      '[pi: context compacted from 190005 tokens]',
    ]);
    // The interrupted `pi -p` left its prompt without an answer: the next prompt ends that turn so.
    const ends = logs.flatMap((log) => dataOf<{ reason: string }>(log, 'turn/end').map((e) => e.reason));
    expect(ends.filter((r) => r !== 'completed')).toEqual(['interrupted']);
    const results = logs.flatMap((log) =>
      dataOf<{ content: unknown; isError?: boolean }>(log, 'tool/result'),
    );
    expect(results.filter((r) => r.isError === true).map((r) => r.content)).toEqual([
      expect.stringContaining('cat: missing.txt: No such file or directory'),
    ]);
  });
});
