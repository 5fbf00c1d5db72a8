import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { importTranscripts } from '../run/import-transcripts.js';
import { PACKAGE_SRC, readStore, workspace, type Workspace } from '../testing/fixture-dirs.js';
import { appendCrushMessages, readCrushDump, restoreCrushDb, type CrushDump } from '../testing/crush-db.js';
import { expectEveryCutAPrefix, mapDatabase } from '../testing/database-prefix.js';
import { crushImporter } from './crush-importer.js';

const FIXTURES = path.join(PACKAGE_SRC, 'crush', 'fixtures');
const DUMPS = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => name.replace(/\.json$/, ''));
const dump = (name: string): CrushDump => readCrushDump(path.join(FIXTURES, `${name}.json`));

let open: Workspace[] = [];
afterEach(() => {
  for (const w of open) w.dispose();
  open = [];
});

/** A fixture's database written into a project (`<source>/project/.crush/crush.db`, or opencode-go's place). */
function sourceWith(name: string, limit?: { messages: number }): Workspace & { db: string } {
  const w = workspace('strand-crush-');
  open.push(w);
  const db = path.join(w.source, 'project', dump(name).file);
  restoreCrushDb(dump(name), db, limit);
  return Object.assign(w, { db });
}

async function imported(name: string) {
  const w = sourceWith(name);
  const summary = await importTranscripts({ harness: 'crush', sourceDir: w.source, dataDir: w.data });
  const logs = [...(await readStore(w.data)).values()];
  return { w, summary, logs };
}

const said = (events: readonly { type: string; data: unknown }[]): string[] =>
  events
    .filter((e) => e.type === 'user/message' || e.type === 'assistant/message')
    .map((e) => {
      const d = e.data as { author?: string; content: unknown };
      return `${d.author ?? 'assistant'}: ${typeof d.content === 'string' ? d.content : JSON.stringify(d.content)}`;
    });

describe('crush fixtures (synthetic, from crush 0.96 source: see fixtures/SOURCES.md)', () => {
  it('has the fixtures it was written with', () => {
    expect(DUMPS.length).toBeGreaterThanOrEqual(9);
    for (const name of DUMPS) expect(dump(name).harness).toBe('crush');
  });

  it.each(DUMPS)(
    '%s: every session imported, nothing unknown, a second run changes nothing',
    async (name) => {
      const { w, summary, logs } = await imported(name);
      expect(summary.failed).toBe(0);
      expect(summary.reports.filter((r) => r.kind !== 'note')).toEqual([]);
      expect(summary.imported).toBe(dump(name).rows.sessions.length);
      for (const log of logs) expect(log.header.source).toMatchObject({ harness: 'crush' });
      const again = await importTranscripts({ harness: 'crush', sourceDir: w.source, dataDir: w.data });
      expect(again).toMatchObject({ imported: 0, updated: 0, failed: 0 });
    },
  );

  it('multi-turn: prompts, replies with their route, the generated title after the first reply', async () => {
    const { logs, summary } = await imported('multi-turn');
    const [log] = logs;
    expect(said(log!.events)).toEqual([
      'human: Please say hello.',
      'assistant: Hello! How can I help?',
      'human: Now say goodbye.',
      'assistant: Goodbye!',
    ]);
    expect(log!.events.filter((e) => e.type === 'session/title').map((e) => e.data)).toEqual([
      { title: 'Please say hello.' },
      { title: 'Bed conversation' },
    ]);
    expect(log!.events.find((e) => e.type === 'request/header')!.data).toEqual({
      provider: 'bed',
      model: 'bed-model',
    });
    expect(log!.events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toEqual([
      { reason: 'completed' },
      { reason: 'completed' },
    ]);
    // Times are crush's seconds, in milliseconds.
    expect(log!.header.createdAt).toBe(1764850000 * 1000);
    expect(summary.ignored).toMatchObject({ 'part reasoning': 1 });
  });

  it('tool-calls: each call with its result, an error result flagged, one turn', async () => {
    const { logs } = await imported('tool-calls');
    const events = logs[0]!.events;
    expect(
      events.filter((e) => e.type === 'tool/call').map((e) => (e.data as { name: string }).name),
    ).toEqual(['view', 'ls']);
    expect(events.filter((e) => e.type === 'tool/result').map((e) => e.data)).toEqual([
      { callId: 'call_view_1', content: '<file>\n     1|remember the milk\n</file>' },
      { callId: 'call_ls_1', content: 'path does not exist: missing', isError: true },
    ]);
    expect(events.filter((e) => e.type === 'turn/start')).toHaveLength(1);
  });

  it("subagent: the agent tool session is a child with a descriptor labelled by the tool, its prompt the agent's", async () => {
    const { logs } = await imported('subagent');
    const parent = logs.find((s) => s.header.parentSession === undefined)!;
    const child = logs.find((s) => s.header.parentSession !== undefined)!;
    expect(child.header).toMatchObject({
      origin: 'subagent',
      parentSession: parent.header.id,
      delegationDepth: 1,
    });
    expect(child.header.id).toMatch(/^crush-subagent-.*\$\$call_agent_1$/);
    expect(child.events[0]).toMatchObject({
      type: 'subagent/descriptor',
      data: { mode: 'one-shot', label: 'agent' },
    });
    expect(said(child.events)[0]).toBe('agent: Search the workspace for the greeting definition.');
    // crush's default title for an agent session is not a title.
    expect(
      child.events.some(
        (e) => e.type === 'session/title' && (e.data as { title: string }).title === 'New Agent Session',
      ),
    ).toBe(false);
  });

  it('compaction: a marker where crush summarized, the summary as a reply', async () => {
    const { logs } = await imported('compaction');
    expect(said(logs[0]!.events)).toEqual([
      'human: Tell me about tides.',
      'assistant: Tides come from the moon.',
      'system: [conversation compacted]',
      'assistant: Summary: the person asked about tides; the moon causes them.',
      'human: And the sun?',
      'assistant: The sun adds a smaller pull.',
    ]);
  });

  it('auto-compaction: the turn goes on through the summary; the prompt crush queues again is system context', async () => {
    const { logs } = await imported('auto-compaction');
    const events = logs[0]!.events;
    expect(said(events)).toEqual([
      'human: Refactor the parser.',
      'assistant: Reading it first.',
      'system: [conversation compacted]',
      'assistant: Summary: the person asked to refactor parser.go; it was read.',
      'system: The previous session was interrupted because it got too long, the initial user request was: `Refactor the parser.`',
      'assistant: Refactored parser.go.',
    ]);
    expect(events.filter((e) => e.type === 'turn/end')).toHaveLength(1);
  });

  it('interrupt: a reply never finished is interrupted, a cancelled one aborted, an error one an error', async () => {
    const { logs } = await imported('interrupt');
    expect(logs[0]!.events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toEqual([
      { reason: 'interrupted' },
      { reason: 'aborted' },
      { reason: 'error', error: 'Provider error: upstream returned 500' },
    ]);
  });

  it('image: the attached picture is an image block, a text file its name, a bang command its output', async () => {
    const { logs } = await imported('image');
    const prompts = logs[0]!.events
      .filter((e) => e.type === 'user/message')
      .map((e) => e.data as Record<string, unknown>);
    expect(prompts[0]!.content).toEqual([
      { type: 'text', text: 'What is in this picture? See also notes.md.' },
      { type: 'image', ref: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { type: 'text', text: '[file: notes.md]' },
    ]);
    expect(prompts[1]).toEqual({ author: 'human', content: '$ ls\ndot.png\nnotes.md\n\n(exit code 0)' });
    // A picture a tool returned is an image block of its result, the same attachment as the prompt's.
    const viewed = logs[0]!.events.find((e) => e.type === 'tool/result')!.data as { content: unknown };
    expect(viewed.content).toEqual([
      { type: 'text', text: 'Loaded image/png content' },
      (prompts[0]!.content as unknown[])[1],
    ]);
  });

  it('opencode-go: its database (no provider column) under .opencode/ imports; the route has no provider', async () => {
    const { logs } = await imported('opencode-go');
    expect(logs[0]!.events.find((e) => e.type === 'request/header')!.data).toEqual({
      provider: 'unknown',
      model: 'claude-3.7-sonnet',
    });
    // "Untitled Session" is crush's placeholder: the first prompt titles the session.
    expect(logs[0]!.events.filter((e) => e.type === 'session/title').map((e) => e.data)).toEqual([
      { title: 'Hello from opencode-go.' },
    ]);
    // Both results of one `tool` message, each answering its call.
    expect(logs[0]!.events.filter((e) => e.type === 'tool/result').map((e) => e.data)).toEqual([
      { callId: 'toolu_a', content: 'package a' },
      { callId: 'toolu_b', content: 'package b' },
    ]);
  });

  it("a tree of projects: each project's database is found", async () => {
    const w = sourceWith('multi-turn');
    restoreCrushDb(dump('tool-calls'), path.join(w.source, 'other', 'nested', '.crush', 'crush.db'));
    restoreCrushDb(dump('resume'), path.join(w.source, 'node_modules', 'pkg', '.crush', 'crush.db'));
    const summary = await importTranscripts({ harness: 'crush', sourceDir: w.source, dataDir: w.data });
    expect(summary).toMatchObject({ imported: 2, failed: 0 });
  });
});

describe('crush: the mapping extends, never rewrites', () => {
  it.each(DUMPS)('%s: the database cut after any message maps to a prefix of every session', async (name) => {
    await expectEveryCutAPrefix(name, dump(name).rows.messages.length, (messages) => {
      const w = sourceWith(name, messages === undefined ? undefined : { messages });
      return mapDatabase(crushImporter, w.db);
    });
  });

  it('a reply still streaming (no finish part) waits; once finished it is appended', async () => {
    const w = sourceWith('tool-calls', { messages: 1 });
    const db = new Database(w.db);
    const reply = dump('tool-calls').rows.messages[1]!;
    // The reply as crush's debounced Update left it mid-stream: text and calls, no finish yet.
    const streaming = (JSON.parse(String(reply.parts)) as { type: string }[]).filter(
      (p) => p.type !== 'finish',
    );
    db.prepare(
      'INSERT INTO messages (id, session_id, role, parts, model, provider, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(
      reply.id,
      reply.session_id,
      'assistant',
      JSON.stringify(streaming),
      reply.model,
      reply.provider,
      reply.created_at,
      reply.updated_at,
    );
    // Tool results land before the reply gets its finish part.
    appendCrushMessages(db, dump('tool-calls'), 2, 4);
    const before = await importTranscripts({ harness: 'crush', sourceDir: w.source, dataDir: w.data });
    expect(before.imported).toBe(1);
    let [log] = [...(await readStore(w.data)).values()];
    expect(log!.events.some((e) => e.type === 'assistant/message')).toBe(false);
    db.prepare('UPDATE messages SET parts = ?, finished_at = ? WHERE id = ?').run(
      reply.parts,
      reply.finished_at,
      reply.id,
    );
    db.close();
    const after = await importTranscripts({ harness: 'crush', sourceDir: w.source, dataDir: w.data });
    expect(after).toMatchObject({ updated: 1, replaced: 0, failed: 0 });
    [log] = [...(await readStore(w.data)).values()];
    expect(log!.events.filter((e) => e.type === 'tool/result')).toHaveLength(2);
  });
});

describe('crush: bad input is a report, never a crash', () => {
  it('a truncated database fails with a reason and is retried; the databases beside it import', async () => {
    const w = sourceWith('multi-turn');
    const conn = new Database(w.db);
    conn.pragma('wal_checkpoint(TRUNCATE)');
    conn.close();
    const bytes = readFileSync(w.db);
    const cut = path.join(path.dirname(w.db), 'cut.db');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const summary = await importTranscripts({ harness: 'crush', sourceDir: w.source, dataDir: w.data });
    expect(summary).toMatchObject({ imported: 1, failed: 1 });
    expect(summary.reports).toContainEqual(expect.objectContaining({ file: cut, kind: 'failed' }));
  });

  it("a SQLite file of another schema (opencode's own, one without crush's columns) and a non-SQLite .db are skipped", async () => {
    const w = sourceWith('multi-turn');
    const dir = path.dirname(w.db);
    const opencode = new Database(path.join(dir, 'opencode-ts.db'));
    opencode.exec(
      'CREATE TABLE session (id TEXT); CREATE TABLE message (id TEXT); CREATE TABLE part (id TEXT)',
    );
    opencode.close();
    const old = new Database(path.join(dir, 'old.db'));
    old.exec('CREATE TABLE sessions (id TEXT); CREATE TABLE messages (id TEXT, body TEXT)');
    old.close();
    writeFileSync(path.join(dir, 'notes.db'), 'not a database\n');
    const summary = await importTranscripts({ harness: 'crush', sourceDir: w.source, dataDir: w.data });
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(
      summary.reports
        .filter((r) => r.kind === 'skipped-file')
        .map((r) => [path.basename(r.file), r.reason])
        .sort(),
    ).toEqual([
      ['notes.db', 'not a crush database (not SQLite)'],
      ['old.db', 'sessions table without parent_session_id, title, created_at (an unknown schema version)'],
      ['opencode-ts.db', 'not a crush database (no sessions and messages tables)'],
    ]);
  });

  it('malformed parts, an unknown part type and an unknown role are reported; the rest imports', async () => {
    const w = sourceWith('tool-calls');
    const db = new Database(w.db);
    const rows = db.prepare('SELECT id FROM messages ORDER BY rowid').all() as { id: string }[];
    db.prepare('UPDATE messages SET parts = ? WHERE id = ?').run('[{"type":"text","data":', rows[2]!.id);
    db.prepare('UPDATE messages SET parts = ? WHERE id = ?').run(
      '[{"type":"hologram","data":{}},{"type":"text","data":{"text":"notes.txt says: remember the milk."}},{"type":"finish","data":{"reason":"end_turn"}}]',
      rows[4]!.id,
    );
    db.prepare("UPDATE messages SET role = 'narrator' WHERE id = ?").run(rows[3]!.id);
    db.close();
    const summary = await importTranscripts({ harness: 'crush', sourceDir: w.source, dataDir: w.data });
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.reports.map((r) => [r.kind, r.reason.replace(/^message \S+:/, 'message ID:')])).toEqual([
      ['skipped-record', 'message ID: malformed parts JSON'],
      ['skipped-record', 'unknown message role "narrator"'],
      ['skipped-record', 'unknown part type "hologram"'],
    ]);
  });

  it("an older crush's permission_denied ends the turn aborted; a finish reason never seen is reported", async () => {
    const w = sourceWith('interrupt');
    const db = new Database(w.db);
    const rows = db.prepare("SELECT id FROM messages WHERE role = 'assistant' ORDER BY rowid").all() as {
      id: string;
    }[];
    const finish = (reason: string) =>
      JSON.stringify([
        { type: 'finish', data: { reason, time: 1764850009, message: 'User denied permission' } },
      ]);
    db.prepare('UPDATE messages SET parts = ? WHERE id = ?').run(finish('permission_denied'), rows[1]!.id);
    db.prepare('UPDATE messages SET parts = ? WHERE id = ?').run(finish('tea_break'), rows[2]!.id);
    db.close();
    const summary = await importTranscripts({ harness: 'crush', sourceDir: w.source, dataDir: w.data });
    expect(summary.reports.map((r) => r.reason)).toEqual(['unknown finish reason "tea_break"']);
    const [log] = [...(await readStore(w.data)).values()];
    expect(
      log!.events.filter((e) => e.type === 'turn/end').map((e) => (e.data as { reason: string }).reason),
    ).toEqual(['interrupted', 'aborted']);
  });

  it('a database locked past the timeout fails (retried next run), and nothing of it is written', async () => {
    const w = sourceWith('multi-turn');
    const holder = new Database(w.db);
    // A rollback-journal exclusive lock keeps every reader out (crush never does this; recovery can).
    holder.pragma('journal_mode = DELETE');
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const summary = await importTranscripts({ harness: 'crush', sourceDir: w.source, dataDir: w.data });
      expect(summary).toMatchObject({ imported: 0, failed: 1 });
      expect(summary.reports[0]).toMatchObject({
        kind: 'failed',
        reason: expect.stringMatching(/locked|busy/),
      });
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    const again = await importTranscripts({ harness: 'crush', sourceDir: w.source, dataDir: w.data });
    expect(again).toMatchObject({ imported: 1, failed: 0 });
  });

  it('reads while crush holds a write open, and never keeps crush from committing', async () => {
    const w = sourceWith('multi-turn');
    const harness = new Database(w.db);
    harness.pragma('busy_timeout = 0');
    harness.exec('BEGIN IMMEDIATE');
    harness.prepare("UPDATE sessions SET title = 'Renamed while read'").run();
    const summary = await importTranscripts({ harness: 'crush', sourceDir: w.source, dataDir: w.data });
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(() => harness.exec('COMMIT')).not.toThrow();
    harness.close();
    const [log] = [...(await readStore(w.data)).values()];
    expect(log!.events.some((e) => (e.data as { title?: string }).title === 'Bed conversation')).toBe(true);
  });
});
