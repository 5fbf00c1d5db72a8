import { cpSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { importTranscripts } from '../run/import-transcripts.js';
import { dbDumps, workspacesPerTest } from '../testing/dump-fixtures.js';
import { PACKAGE_SRC, readStore, type Workspace } from '../testing/fixture-dirs.js';
import { describeDatabaseBadInput } from '../testing/database-bad-input.js';
import { readGooseDump, restoreGooseDb, type GooseDump } from '../testing/goose-db.js';
import { gooseSessionsDir } from './goose-importer.js';
import { expectEveryCutAPrefix, mapDatabase } from '../testing/database-prefix.js';
import { gooseImporter } from './goose-importer.js';

const FIXTURES = path.join(PACKAGE_SRC, 'goose', 'fixtures');
const { names: DUMPS, file: dumpFile } = dbDumps('goose');
const dump = (name: string): GooseDump => readGooseDump(dumpFile(name));
const freshWorkspace = workspacesPerTest('strand-goose-');

/** A fixture's database written into a fresh source folder as `sessions.db`. */
function sourceWith(name: string, limit?: { messages: number }): Workspace {
  const w = freshWorkspace();
  restoreGooseDb(dump(name), path.join(w.source, 'sessions.db'), limit).close();
  return w;
}

async function importOnce(w: Workspace) {
  return importTranscripts({ harness: 'goose', sourceDir: w.source, dataDir: w.data });
}

/** `author: text` (or `assistant: text`) of every message of a stored session, in order. */
function said(events: readonly { type: string; data: unknown }[]): string[] {
  return events
    .filter((e) => e.type === 'user/message' || e.type === 'assistant/message')
    .map((e) => {
      const d = e.data as { author?: string; content: unknown };
      const text = typeof d.content === 'string' ? d.content : JSON.stringify(d.content);
      return `${d.author ?? 'assistant'}: ${text.slice(0, 40)}`;
    });
}

describe('goose sessions.db (fixtures built from goose source, see fixtures/SOURCES.md)', () => {
  it.each(DUMPS)(
    '%s: every session imported, nothing unknown, a second run changes nothing',
    async (name) => {
      const w = sourceWith(name);
      const first = await importOnce(w);
      expect(first.failed).toBe(0);
      expect(first.reports.filter((r) => r.kind !== 'note')).toEqual([]);
      const expected = dump(name).rows.sessions.filter((s) => s.session_type !== 'hidden').length;
      expect(first.imported).toBe(expected);
      const store = await readStore(w.data);
      for (const log of store.values()) {
        expect(log.header.source?.harness).toBe('goose');
        expect(log.header.cwd).toMatch(/^\/home\/dev\//);
      }
      const again = await importOnce(w);
      expect(again).toMatchObject({ imported: 0, updated: 0, failed: 0 });
    },
  );

  it('multi-turn: the route of the session, turns closed by the next prompt, the name goose gave after the first reply', async () => {
    const w = sourceWith('multi-turn');
    await importOnce(w);
    const [log] = [...(await readStore(w.data)).values()];
    expect(log!.header).toMatchObject({ id: 'goose-20261204_1', cwd: '/home/dev/project' });
    expect(log!.header.createdAt).toBe(Date.parse('2026-12-04T10:00:00Z'));
    const types = log!.events.map((e) => e.type);
    expect(types).toEqual([
      'session/title',
      'turn/start',
      'user/message',
      'request/header',
      'assistant/message',
      'session/title',
      'turn/end',
      'turn/start',
      'user/message',
      'assistant/message',
    ]);
    expect(log!.events.filter((e) => e.type === 'session/title').map((e) => e.data)).toEqual([
      { title: 'Please say hello.' },
      { title: 'Greeting and arithmetic' },
    ]);
    expect(log!.events.find((e) => e.type === 'request/header')!.data).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
    });
    // `created` is Unix seconds.
    expect(log!.events[2]!.time).toBe(1796378400 * 1000);
  });

  it('tool-calls: results by call id, errors flagged, content for the person only left out, reasoning ignored', async () => {
    const w = sourceWith('tool-calls');
    const summary = await importOnce(w);
    expect(summary.ignored).toMatchObject({ thinking: 1 });
    const [log] = [...(await readStore(w.data)).values()];
    const calls = log!.events
      .filter((e) => e.type === 'tool/call')
      .map((e) => e.data as Record<string, unknown>);
    expect(calls.map((c) => [c.callId, c.name])).toEqual([
      ['toolu_01', 'developer__shell'],
      ['toolu_02', 'developer__text_editor'],
      ['toolu_03', 'invalid_tool_call'],
      ['toolu_04', 'developer__text_editor'],
    ]);
    expect(JSON.parse(calls[0]!.arguments as string)).toEqual({ command: 'ls' });
    const results = log!.events
      .filter((e) => e.type === 'tool/result')
      .map((e) => e.data as Record<string, unknown>);
    expect(results).toEqual([
      { callId: 'toolu_01', content: 'README.md\nsrc\n' },
      { callId: 'toolu_02', content: 'The path /home/dev/project/MISSING.md does not exist.', isError: true },
      { callId: 'toolu_03', content: '-32602: Could not interpret tool use parameters', isError: true },
      { callId: 'toolu_04', content: '# Project\nA sample.' },
    ]);
    expect(said(log!.events).at(-1)).toBe('assistant: The README says: A sample.');
  });

  it("image: the person's picture is an image attachment; goose's default name is no title", async () => {
    const w = sourceWith('image');
    await importOnce(w);
    const [log] = [...(await readStore(w.data)).values()];
    const prompt = log!.events.find((e) => e.type === 'user/message')!.data as { content: unknown };
    expect(prompt.content).toEqual([
      { type: 'image', ref: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { type: 'text', text: 'What is in this picture?' },
    ]);
    expect(log!.events.filter((e) => e.type === 'session/title').map((e) => e.data)).toEqual([
      { title: 'What is in this picture?' },
    ]);
    expect(log!.events.find((e) => e.type === 'request/header')!.data).toEqual({
      provider: 'openai',
      model: 'gpt-4o',
    });
  });

  it('compaction: the history stays, the notice and what goose wrote for the model are system messages', async () => {
    const w = sourceWith('compaction');
    const summary = await importOnce(w);
    expect(summary.ignored).toMatchObject({ 'systemNotification thinkingMessage': 1 });
    const [log] = [...(await readStore(w.data)).values()];
    expect(said(log!.events)).toEqual([
      'human: Please say hello.',
      'assistant: Hello!',
      'system: Conversation compacted and summarized',
      'system: ## Summary\nThe person said hello and was',
      'system: The previous message contains a summary ',
      'human: Go on.',
      'assistant: Going on from the summary.',
    ]);
  });

  it('compaction rewrites the rows (replace_conversation): the import extends, it does not replace', async () => {
    const name = 'compaction';
    const d = dump(name);
    // Before the compaction: the first two messages, visible to both.
    const w = freshWorkspace();
    const file = path.join(w.source, 'sessions.db');
    const db = restoreGooseDb(
      {
        ...d,
        rows: {
          ...d.rows,
          messages: d.rows.messages
            .slice(0, 2)
            .map((m) => ({ ...m, metadata_json: '{"userVisible":true,"agentVisible":true}' })),
        },
      },
      file,
    );
    expect((await importOnce(w)).imported).toBe(1);
    // goose's replace_conversation: every row deleted, the new conversation inserted (new row ids).
    db.transaction(() => {
      db.prepare('DELETE FROM messages').run();
      db.prepare("UPDATE sqlite_sequence SET seq = 100 WHERE name = 'messages'").run();
      for (const m of d.rows.messages) {
        const { id: _id, ...row } = m;
        const cols = Object.keys(row);
        db.prepare(
          `INSERT INTO messages (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        ).run(...cols.map((c) => row[c]));
      }
    })();
    db.close();
    const second = await importOnce(w);
    expect(second).toMatchObject({ imported: 0, updated: 1, replaced: 0, failed: 0 });
  });

  it('subagent and hidden sessions: the subagent session is imported, goose-internal hidden ones are not', async () => {
    const w = sourceWith('subagent');
    const summary = await importOnce(w);
    expect(summary.ignored).toMatchObject({ 'session hidden': 1 });
    const ids = [...(await readStore(w.data)).keys()].sort();
    expect(ids).toEqual(['goose-20261204_5', 'goose-20261204_6']);
  });

  it('schema 5 (no provider, no message_id, description before name): imported by its columns', async () => {
    const w = sourceWith('schema-5');
    await importOnce(w);
    const [log] = [...(await readStore(w.data)).values()];
    expect(log!.events.some((e) => e.type === 'request/header')).toBe(false);
    expect(log!.events.filter((e) => e.type === 'session/title').map((e) => e.data)).toEqual([
      { title: 'Hello from an older goose.' },
      { title: 'Old greeting' },
    ]);
    expect(log!.header.createdAt).toBe(Date.parse('2025-10-15T08:00:00Z'));
  });
});

describe('goose: the mapping extends, never rewrites', () => {
  it.each(DUMPS)('%s: the database cut after any message maps to a prefix of every session', async (name) => {
    await expectEveryCutAPrefix(name, dump(name).rows.messages.length, (messages) => {
      const w = sourceWith(name, messages === undefined ? undefined : { messages });
      return mapDatabase(gooseImporter, path.join(w.source, 'sessions.db'));
    });
  });
});

describe('goose legacy JSONL sessions', () => {
  function legacySource(folder: string): Workspace {
    const w = freshWorkspace();
    cpSync(path.join(FIXTURES, folder), w.source, { recursive: true });
    return w;
  }

  it('a metadata line then one message per line; the oldest files have no metadata line', async () => {
    const w = legacySource('legacy');
    const summary = await importOnce(w);
    expect(summary).toMatchObject({ imported: 2, failed: 0 });
    expect(summary.reports).toEqual([]);
    const store = await readStore(w.data);
    const log = store.get('goose-20250301_101500')!;
    expect(log.header.cwd).toBe('/home/dev/legacy');
    expect(said(log.events)).toEqual([
      'human: Say hello, then run pwd.',
      'assistant: Hello!',
      'assistant: You are in /home/dev/legacy.',
      'human: Thanks.',
      "assistant: You're welcome.",
    ]);
    // An older tool result: a bare list of content (before rmcp's CallToolResult).
    expect(log.events.find((e) => e.type === 'tool/result')!.data).toEqual({
      callId: 'toolu_a1',
      content: '/home/dev/legacy',
    });
    expect(log.events.filter((e) => e.type === 'session/title').map((e) => e.data)).toEqual([
      { title: 'Say hello, then run pwd.' },
      { title: 'Legacy greeting' },
    ]);
    expect(store.get('goose-20250102_090000')).toBeDefined();
  });

  it('beside sessions.db a legacy file is skipped: goose imported it into the database', async () => {
    const w = sourceWith('multi-turn');
    cpSync(path.join(FIXTURES, 'legacy'), w.source, { recursive: true });
    const summary = await importOnce(w);
    expect(summary.imported).toBe(1);
    expect(
      summary.reports.filter((r) => r.kind === 'skipped-file').map((r) => path.basename(r.file)),
    ).toEqual(['20250102_090000.jsonl', '20250301_101500.jsonl']);
  });

  it('damaged: a malformed line, an unknown content type and a torn last line are reports', async () => {
    const w = legacySource('damaged');
    const summary = await importOnce(w);
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.reports.map((r) => [r.kind, r.line, r.reason])).toEqual([
      ['skipped-record', 3, expect.stringMatching(/^malformed JSON/)],
      ['skipped-record', 4, 'unknown content type "hologram"'],
      ['skipped-record', 6, 'torn last line (no newline, incomplete JSON)'],
    ]);
    const [log] = [...(await readStore(w.data)).values()];
    expect(said(log!.events)).toEqual([
      'human: Say hello, then run pwd.',
      'assistant: Still here.',
      'human: Next.',
    ]);
  });
});

describe('goose: bad input is a report, never a crash', () => {
  it('a newer schema version is read by its columns, with a note; a malformed row is a skipped record', async () => {
    const w = sourceWith('multi-turn');
    const db = new Database(path.join(w.source, 'sessions.db'));
    db.prepare('INSERT INTO schema_version (version) VALUES (14)').run();
    db.prepare('UPDATE messages SET content_json = ? WHERE id = 3').run('[{"type":"text",');
    db.close();
    const summary = await importOnce(w);
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.reports.map((r) => [r.kind, r.reason])).toEqual([
      ['note', 'schema version 14 is newer than the 13 this importer knows; read by its columns'],
      ['skipped-record', 'session 20261204_1 message 3: malformed content_json'],
    ]);
  });
});

describeDatabaseBadInput({
  harness: 'goose',
  file: 'sessions.db',
  restore: (file) => restoreGooseDb(dump('multi-turn'), file).close(),
  sessions: 1,
  writeHeld: (harness) => harness.prepare("UPDATE sessions SET name = 'Renamed while read'").run(),
  writeOtherSchema: (db) =>
    db.exec('CREATE TABLE sessions (id TEXT, created_at TEXT); CREATE TABLE messages (id INTEGER)'),
  otherSchemaReason: /sessions table without working_dir/,
  // The read saw the snapshot before the held write.
  readBefore: async (w) => {
    const [log] = [...(await readStore(w.data)).values()];
    expect(log!.events.some((e) => (e.data as { title?: string }).title === 'Greeting and arithmetic')).toBe(
      true,
    );
  },
});

describe('goose default folder', () => {
  it('GOOSE_PATH_ROOT (absolute) first, then XDG_DATA_HOME, then ~/.local/share; %APPDATA% on Windows', () => {
    expect(gooseSessionsDir('/home/a', { GOOSE_PATH_ROOT: '/srv/goose' }, 'linux')).toBe(
      '/srv/goose/data/sessions',
    );
    // goose ignores a relative root (`validated_path_root`).
    expect(gooseSessionsDir('/home/a', { GOOSE_PATH_ROOT: 'rel' }, 'linux')).toBe(
      '/home/a/.local/share/goose/sessions',
    );
    expect(gooseSessionsDir('/home/a', { XDG_DATA_HOME: '/x' }, 'darwin')).toBe('/x/goose/sessions');
    expect(gooseSessionsDir('/home/a', {}, 'darwin')).toBe('/home/a/.local/share/goose/sessions');
    expect(
      gooseSessionsDir('C:\\Users\\a', { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32'),
    ).toContain(path.join('Block', 'goose', 'data', 'sessions'));
  });
});
