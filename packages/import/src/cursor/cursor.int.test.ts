import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { importTranscripts } from '../run/import-transcripts.js';
import { dbDumps, workspacesPerTest } from '../testing/dump-fixtures.js';
import { readStore, type Workspace } from '../testing/fixture-dirs.js';
import { readCursorDump, restoreCursorDb, type CursorDump } from '../testing/cursor-db.js';
import { describeDatabaseBadInput } from '../testing/database-bad-input.js';
import { expectEveryCutAPrefix, mapDatabase } from '../testing/database-prefix.js';
import { cursorGlobalStorageDir, cursorImporter } from './cursor-importer.js';

const { names: DUMPS, file: dumpFile } = dbDumps('cursor');
const dump = (name: string): CursorDump => readCursorDump(dumpFile(name));
const freshWorkspace = workspacesPerTest('strand-cursor-');

/** A fixture's database written into a fresh source folder as `state.vscdb`. */
function sourceWith(name: string | CursorDump, limit?: { bubbles: number }): Workspace {
  const w = freshWorkspace();
  restoreCursorDb(typeof name === 'string' ? dump(name) : name, dbOf(w), limit).close();
  return w;
}

const dbOf = (w: Workspace): string => path.join(w.source, 'state.vscdb');

async function importOnce(w: Workspace) {
  return importTranscripts({ harness: 'cursor', sourceDir: w.source, dataDir: w.data });
}

type Logged = { type: string; data: unknown };
const dataOf = (events: readonly Logged[], type: string) =>
  events.filter((e) => e.type === type).map((e) => e.data as Record<string, unknown>);

describe('cursor state.vscdb (synthetic fixtures, see fixtures/SOURCES.md)', () => {
  it.each(DUMPS)('%s: every chat imported, nothing unknown, a second run changes nothing', async (name) => {
    const w = sourceWith(name);
    const first = await importOnce(w);
    expect(first.failed).toBe(0);
    expect(first.reports.filter((r) => r.kind !== 'note')).toEqual([]);
    const chats = dump(name).composers.filter((c) => {
      const v = c.value;
      return (
        (Array.isArray(v.fullConversationHeadersOnly) && v.fullConversationHeadersOnly.length > 0) ||
        Array.isArray(v.conversation)
      );
    });
    expect(first.imported).toBe(chats.length);
    for (const log of (await readStore(w.data)).values()) expect(log.header.source?.harness).toBe('cursor');
    const again = await importOnce(w);
    expect(again).toMatchObject({ imported: 0, updated: 0, failed: 0 });
  });

  it('multi-turn: the model of each request, usage per reply, turns closed by the next prompt, the name after the first reply', async () => {
    const w = sourceWith('multi-turn');
    const summary = await importOnce(w);
    // The empty chat (opened, never sent) is no session.
    expect(summary.imported).toBe(1);
    const log = (await readStore(w.data)).get('cursor-c-multi')!;
    expect(log.header).toMatchObject({
      cwd: '/home/dev/project',
      createdAt: Date.parse('2026-12-04T10:00:00Z'),
    });
    expect(log.header.source).toEqual({ harness: 'cursor', sourceId: 'c-multi' });
    expect(log.events.map((e) => e.type)).toEqual([
      'session/title',
      'turn/start',
      'user/message',
      'request/header',
      'assistant/message',
      'session/title',
      'turn/end',
      'turn/start',
      'user/message',
      'request/header',
      'assistant/message',
    ]);
    expect(dataOf(log.events, 'session/title')).toEqual([
      { title: 'Please say hello.' },
      { title: 'Greeting and arithmetic' },
    ]);
    expect(dataOf(log.events, 'request/header')).toEqual([
      { provider: 'cursor', model: 'claude-4-sonnet' },
      { provider: 'cursor', model: 'gpt-5' },
    ]);
    expect(dataOf(log.events, 'assistant/message')).toEqual([
      { content: 'Hello!', usage: { input: 1200, output: 8 } },
      { content: '4.', usage: { input: 1300, output: 3 } },
    ]);
    expect(dataOf(log.events, 'user/message')[0]).toEqual({ content: 'Please say hello.', author: 'human' });
    expect(log.events[2]!.time).toBe(Date.parse('2026-12-04T10:00:00Z'));
    expect(log.events.at(-1)!.time).toBe(Date.parse('2026-12-04T10:01:05Z'));
  });

  it('tool-calls: results by call id, errors and rejections flagged, a pending call closed unknown by the next prompt', async () => {
    const w = sourceWith('tool-calls');
    const summary = await importOnce(w);
    expect(summary.ignored).toMatchObject({ thinking: 1, 'tool state without a call': 1 });
    const log = (await readStore(w.data)).get('cursor-c-tools')!;
    const calls = dataOf(log.events, 'tool/call');
    expect(calls.map((c) => [c.callId, c.name])).toEqual([
      ['toolu_01', 'read_file'],
      ['toolu_02', 'run_terminal_cmd'],
      ['toolu_03', 'edit_file'],
      ['toolu_04', 'codebase_search'],
    ]);
    expect(JSON.parse(calls[1]!.arguments as string)).toEqual({ command: 'npm test' });
    expect(dataOf(log.events, 'tool/result')).toEqual([
      // Cursor's result, as it stores it (a JSON string).
      { callId: 'toolu_01', content: '{"contents": "# Project\\nA sample."}' },
      { callId: 'toolu_02', content: '{"output": "1 failing", "exitCode": 1}', isError: true },
      { callId: 'toolu_03', content: '[rejected]', isError: true },
      { callId: 'toolu_04', content: '', isError: true, code: 'TOOL_OUTCOME_UNKNOWN' },
    ]);
    const replies = dataOf(log.events, 'assistant/message');
    expect(replies.map((r) => r.content)).toEqual([
      '',
      'Running the tests.',
      '',
      '',
      'One test fails; the edit was rejected.',
    ]);
    expect(replies.at(-1)!.usage).toEqual({ input: 5000, output: 40 });
    // No name: the first prompt titles the chat.
    expect(dataOf(log.events, 'session/title')).toEqual([{ title: 'Read the README, then run the tests.' }]);
  });

  it('inline: an older chat kept inside composerData (no bubble keys, no bubble times)', async () => {
    const w = sourceWith('inline');
    await importOnce(w);
    const log = (await readStore(w.data)).get('cursor-c-inline')!;
    expect(log.header).toMatchObject({ cwd: '/home/dev/old', createdAt: Date.parse('2026-12-03T10:00:00Z') });
    expect(dataOf(log.events, 'assistant/message')).toEqual([{ content: 'It adds two numbers.' }]);
    // Bubbles without times take the chat's.
    expect(new Set(log.events.map((e) => e.time))).toEqual(new Set([Date.parse('2026-12-03T10:00:00Z')]));
  });
});

describe('cursor: the mapping extends, never rewrites', () => {
  it.each(DUMPS)('%s: the database cut after any bubble maps to a prefix of every chat', async (name) => {
    await expectEveryCutAPrefix(name, dump(name).bubbles.length, (bubbles) =>
      mapDatabase(cursorImporter, dbOf(sourceWith(name, bubbles === undefined ? undefined : { bubbles }))),
    );
  });

  it('a bubble Cursor is still writing is read once it is done: the chat is extended, not replaced', async () => {
    const d = dump('multi-turn');
    const multi = d.composers.find((c) => c.id === 'c-multi')!;
    const streaming: CursorDump = {
      ...d,
      composers: [
        { id: multi.id, value: { ...multi.value, status: 'generating', generatingBubbleIds: ['b4'] } },
      ],
      bubbles: d.bubbles.map((b) => (b.bubbleId === 'b4' ? { ...b, value: { ...b.value, text: '4' } } : b)),
    };
    const w = sourceWith(streaming);
    expect((await importOnce(w)).imported).toBe(1);
    const before = (await readStore(w.data)).get('cursor-c-multi')!;
    expect(dataOf(before.events, 'assistant/message').map((m) => m.content)).toEqual(['Hello!']);

    const db = new Database(dbOf(w));
    db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run(
      'composerData:c-multi',
      JSON.stringify({ ...multi.value, status: 'completed' }),
    );
    db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run(
      'bubbleId:c-multi:b4',
      JSON.stringify(d.bubbles.find((b) => b.bubbleId === 'b4')!.value),
    );
    db.close();
    expect(await importOnce(w)).toMatchObject({ imported: 0, updated: 1, replaced: 0, failed: 0 });
    const after = (await readStore(w.data)).get('cursor-c-multi')!;
    expect(dataOf(after.events, 'assistant/message').map((m) => m.content)).toEqual(['Hello!', '4.']);
  });
});

describe('cursor: bad input is a report, never a crash', () => {
  it('the backup Cursor keeps beside its database is not read', async () => {
    const w = sourceWith('multi-turn');
    writeFileSync(path.join(w.source, 'state.vscdb.backup'), 'a copy Cursor keeps\n');
    const summary = await importOnce(w);
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.reports).toEqual([]);
  });

  it('a malformed chat, a malformed bubble, a chat of an unknown shape and a newer version are reports', async () => {
    const w = sourceWith('multi-turn');
    const db = new Database(dbOf(w));
    const put = db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
    put.run('composerData:c-bad', '{"composerId":');
    put.run('composerData:c-odd', JSON.stringify({ _v: 10, composerId: 'c-odd', createdAt: 1 }));
    put.run('bubbleId:c-multi:b3', '{"type":1,');
    const multi = dump('multi-turn').composers.find((c) => c.id === 'c-multi')!.value;
    put.run('composerData:c-multi', JSON.stringify({ ...multi, _v: 12 }));
    db.close();
    const summary = await importOnce(w);
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.reports.map((r) => [r.kind, r.reason])).toEqual([
      ['skipped-record', 'composer c-bad: malformed composerData'],
      ['skipped-record', 'composer c-multi bubble b3: malformed bubble'],
      ['skipped-record', 'unknown composerData shape (no fullConversationHeadersOnly or conversation)'],
      ['note', 'composerData version 12 is newer than the 10 this importer knows; read by its fields'],
    ]);
  });

  it('a header whose bubble is not stored yet: read up to it, with a note', async () => {
    const w = sourceWith('multi-turn');
    const db = new Database(dbOf(w));
    db.prepare("DELETE FROM cursorDiskKV WHERE key = 'bubbleId:c-multi:b3'").run();
    db.close();
    const summary = await importOnce(w);
    expect(summary.reports.map((r) => [r.kind, r.reason])).toEqual([
      ['note', 'composer c-multi: bubble b3 is not stored (yet); read up to it'],
    ]);
    const log = (await readStore(w.data)).get('cursor-c-multi')!;
    expect(dataOf(log.events, 'assistant/message').map((m) => m.content)).toEqual(['Hello!']);
  });
});

describeDatabaseBadInput({
  harness: 'cursor',
  file: 'state.vscdb',
  restore: (file) => restoreCursorDb(dump('multi-turn'), file).close(),
  sessions: 1,
  writeHeld: (harness) =>
    harness.prepare("INSERT INTO cursorDiskKV (key, value) VALUES ('bubbleId:c-multi:b9', '{}')").run(),
  writeOtherSchema: (db) => db.exec('CREATE TABLE cursorDiskKV (k TEXT, v BLOB)'),
  otherSchemaReason: /cursorDiskKV table without key, value \(an unknown schema version\)/,
});

describe('cursor default folder', () => {
  it('the editor global storage: ~/.config (XDG_CONFIG_HOME) on Linux, Application Support on macOS, %APPDATA% on Windows', () => {
    expect(cursorGlobalStorageDir('/home/a', {}, 'linux')).toBe('/home/a/.config/Cursor/User/globalStorage');
    expect(cursorGlobalStorageDir('/home/a', { XDG_CONFIG_HOME: '/x' }, 'linux')).toBe(
      '/x/Cursor/User/globalStorage',
    );
    expect(cursorGlobalStorageDir('/Users/a', {}, 'darwin')).toBe(
      '/Users/a/Library/Application Support/Cursor/User/globalStorage',
    );
    expect(
      cursorGlobalStorageDir('C:\\Users\\a', { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32'),
    ).toContain(path.join('Cursor', 'User', 'globalStorage'));
  });
});
