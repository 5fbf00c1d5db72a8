import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSourceDir } from '../harnesses.js';
import { importTranscripts } from '../run/import-transcripts.js';
import { PACKAGE_SRC, readStore, workspace, type Workspace } from '../testing/fixture-dirs.js';
import { readDump, restoreOpencodeDb, type OpencodeDump } from '../testing/opencode-db.js';
import { kiloImporter } from './kilo-importer.js';
import { expectEveryCutAPrefix, mapDatabase } from '../testing/database-prefix.js';

const FIXTURES = path.join(PACKAGE_SRC, 'kilo', 'fixtures');
const DUMPS = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.replace(/\.json$/, ''))
  .sort();
const dump = (name: string): OpencodeDump => readDump(path.join(FIXTURES, `${name}.json`));

let open: Workspace[] = [];
afterEach(() => {
  for (const w of open) w.dispose();
  open = [];
});

/** A fixture's database written into a fresh source folder as `kilo.db`, as kilo names it. */
function sourceWith(name: string, limit?: { messages: number }): Workspace {
  const w = workspace('strand-kilo-');
  open.push(w);
  restoreOpencodeDb(dump(name), path.join(w.source, 'kilo.db'), limit);
  return w;
}

const run = (w: Workspace) => importTranscripts({ harness: 'kilo', sourceDir: w.source, dataDir: w.data });

describe('kilo fixtures (written by the real Kilo Code CLI in the harness bed)', () => {
  it('has a fixture per bed scenario, each written by kilo', () => {
    expect(DUMPS.length).toBeGreaterThanOrEqual(7);
    for (const name of DUMPS) expect(dump(name)).toMatchObject({ harness: 'kilo', version: '7.7.7' });
  });

  it('reads ~/.local/share/kilo by default', () => {
    expect(defaultSourceDir('kilo', '/home/ada')).toBe('/home/ada/.local/share/kilo');
  });

  it.each(DUMPS)(
    '%s: every session imported as kilo, nothing unknown, a second run changes nothing',
    async (name) => {
      const w = sourceWith(name);
      const first = await run(w);
      expect(first.failed).toBe(0);
      expect(first.reports.filter((r) => r.kind !== 'note')).toEqual([]);
      expect(first.imported).toBe(dump(name).rows.session!.length);
      for (const log of (await readStore(w.data)).values()) {
        // Its own harness name and id prefix: never taken for an opencode session.
        expect(log.header.source).toEqual({ harness: 'kilo', sourceId: expect.stringMatching(/^ses_/) });
        expect(log.header.id).toBe(`kilo-${log.header.source!.sourceId}`);
        expect(log.header.cwd).toMatch(/\/work$/);
      }
      expect(await run(w)).toMatchObject({ imported: 0, updated: 0, failed: 0 });
    },
  );

  it('subagent: the task session is a kilo child with a descriptor and the title kilo gave it', async () => {
    const w = sourceWith('subagent');
    await run(w);
    const store = [...(await readStore(w.data)).values()];
    const child = store.find((s) => s.header.parentSession !== undefined)!;
    const parent = store.find((s) => s.header.parentSession === undefined)!;
    expect(parent.header.id).toMatch(/^kilo-ses_/);
    expect(child.header).toMatchObject({
      origin: 'subagent',
      parentSession: parent.header.id,
      delegationDepth: 1,
    });
    expect(child.events[0]).toMatchObject({
      type: 'subagent/descriptor',
      data: { mode: 'one-shot', label: 'general' },
    });
    expect(child.events.find((e) => e.type === 'user/message')!.data).toMatchObject({ author: 'agent' });
    // kilo names a child session "<description> (@<agent> subagent)", not opencode's default.
    const titles = child.events.filter((e) => e.type === 'session/title').map((e) => e.data);
    expect(titles.at(-1)).toEqual({ title: 'Count the files (@general subagent)' });
  });

  it('multi-turn: `kilo run` leaves the default title, so the first prompt titles the session', async () => {
    const w = sourceWith('multi-turn');
    await run(w);
    const [log] = [...(await readStore(w.data)).values()];
    expect(log!.events.filter((e) => e.type === 'session/title').map((e) => e.data)).toEqual([
      { title: 'Please say hello.' },
    ]);
  });

  it('slash-command: the command as typed (kilo marks it) is a system marker, its expansion the prompt', async () => {
    const w = sourceWith('slash-command');
    await run(w);
    const [log] = [...(await readStore(w.data)).values()];
    const messages = log!.events
      .filter((e) => e.type === 'user/message')
      .map((e) => e.data as { author: string; content: unknown });
    expect(messages).toEqual([
      { author: 'system', content: '/greet Ada' },
      { author: 'human', content: 'Say hello to Ada politely.' },
    ]);
    // The marker comes before the turn its expansion starts, as Qwen Code's command records do.
    expect(log!.events.map((e) => e.type).slice(0, 4)).toEqual([
      'user/message',
      'session/title',
      'turn/start',
      'user/message',
    ]);
  });

  it('usage: each reply once, in the log meaning (input fresh, cache reads apart)', async () => {
    const w = sourceWith('resume');
    await run(w);
    const [log] = [...(await readStore(w.data)).values()];
    const usages = log!.events
      .filter((e) => e.type === 'assistant/message')
      .map((e) => (e.data as { usage?: unknown }).usage);
    expect(usages).toEqual(Array(4).fill({ input: 120, output: 12, cacheRead: 40 }));
  });

  it('compaction: a marker, the summary as a reply, the overflowing prompt kilo replays as system context', async () => {
    const w = sourceWith('compaction');
    await run(w);
    const [log] = [...(await readStore(w.data)).values()];
    const said = log!.events
      .filter((e) => e.type === 'user/message' || e.type === 'assistant/message')
      .map((e) => {
        const d = e.data as { author?: string; content: unknown };
        return `${d.author ?? 'assistant'}: ${String(d.content).trim().slice(0, 30)}`;
      });
    expect(said).toEqual([
      'human: Please say hello.',
      'assistant: Hello!',
      'human: Please go on.',
      'system: [conversation compacted]',
      'assistant: The person said hello.',
      'system: Please go on.',
      'system: <system-reminder>\nThe active a',
      'assistant: Going on from the summary.',
    ]);
  });

  it('interrupt: kilo keeps no row of the stopped reply; the next prompt ends that turn interrupted', async () => {
    expect(
      dump('interrupt').rows.message!.map((m) => (JSON.parse(String(m.data)) as { role: string }).role),
    ).toEqual(['user', 'user', 'assistant']);
    const w = sourceWith('interrupt');
    await run(w);
    const [log] = [...(await readStore(w.data)).values()];
    const ends = log!.events
      .filter((e) => e.type === 'turn/end')
      .map((e) => (e.data as { reason: string }).reason);
    expect(ends).toEqual(['interrupted', 'completed']);
  });
});

describe('kilo: the mapping extends, never rewrites', () => {
  it.each(DUMPS)('%s: the database cut after any message maps to a prefix of every session', async (name) => {
    await expectEveryCutAPrefix(name, dump(name).rows.message!.length, (messages) => {
      const w = sourceWith(name, messages === undefined ? undefined : { messages });
      return mapDatabase(kiloImporter, path.join(w.source, 'kilo.db'));
    });
  });

  it("the database's own id is kilo's, never opencode's", async () => {
    const w = sourceWith(DUMPS[0]!);
    const peek = await kiloImporter.peek({ file: path.join(w.source, 'kilo.db'), companions: [] });
    expect(peek).toMatchObject({
      kind: 'session',
      primaryId: expect.stringMatching(/^kilo-db-[0-9a-f]{16}$/),
    });
  });
});

describe('kilo: bad input is a report, never a crash', () => {
  it('a truncated channel database fails with a reason and is retried; kilo.db beside it imports', async () => {
    const w = sourceWith('multi-turn');
    const db = path.join(w.source, 'kilo.db');
    const conn = new Database(db);
    conn.pragma('wal_checkpoint(TRUNCATE)');
    conn.close();
    const bytes = readFileSync(db);
    writeFileSync(path.join(w.source, 'kilo-beta.db'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    const summary = await run(w);
    expect(summary).toMatchObject({ imported: 1, failed: 1 });
    expect(summary.reports).toContainEqual(
      expect.objectContaining({ file: path.join(w.source, 'kilo-beta.db'), kind: 'failed' }),
    );
  });

  it('a SQLite file of another schema, and a non-SQLite .db, are skipped files naming kilo', async () => {
    const w = sourceWith('multi-turn');
    const other = new Database(path.join(w.source, 'other.db'));
    other.exec('CREATE TABLE things (id TEXT)');
    other.close();
    writeFileSync(path.join(w.source, 'notes.db'), 'not a database\n');
    const summary = await run(w);
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(
      summary.reports
        .filter((r) => r.kind === 'skipped-file')
        .map((r) => `${path.basename(r.file)}: ${r.reason}`)
        .sort(),
    ).toEqual([
      'notes.db: not a Kilo database (not SQLite)',
      'other.db: not a Kilo database (no session, message and part tables)',
    ]);
  });

  it('a store of an unknown schema version (a column gone) is skipped, saying which', async () => {
    const w = sourceWith('multi-turn');
    const db = new Database(path.join(w.source, 'kilo.db'));
    db.exec('ALTER TABLE message DROP COLUMN time_created');
    db.close();
    const summary = await run(w);
    expect(summary).toMatchObject({ imported: 0, failed: 0 });
    expect(summary.reports.map((r) => [r.kind, r.reason])).toEqual([
      ['skipped-file', 'message table without time_created (an unknown schema version)'],
    ]);
  });

  it('a malformed row and an unknown part type are reported; the rest of the session imports', async () => {
    const w = sourceWith('tool-calls');
    const db = new Database(path.join(w.source, 'kilo.db'));
    const parts = db.prepare('SELECT id FROM part ORDER BY id').all() as { id: string }[];
    db.prepare('UPDATE part SET data = ? WHERE id = ?').run('{"type":"text","text":', parts[1]!.id);
    db.prepare('UPDATE part SET data = ? WHERE id = ?').run('{"type":"hologram"}', parts[2]!.id);
    db.close();
    const summary = await run(w);
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.reports.map((r) => [r.kind, r.reason.replace(/prt_\w+/, 'prt')])).toEqual([
      ['skipped-record', 'part prt: malformed JSON'],
      ['skipped-record', 'unknown part type "hologram"'],
    ]);
  });

  it('a database locked by a writer past the timeout fails and is retried, not skipped', async () => {
    const w = sourceWith('multi-turn');
    const file = path.join(w.source, 'kilo.db');
    // Back to a rollback journal, so an exclusive lock keeps readers out (WAL never does).
    const harness = new Database(file);
    harness.pragma('journal_mode = DELETE');
    harness.exec('BEGIN EXCLUSIVE');
    try {
      const summary = await run(w);
      expect(summary).toMatchObject({ imported: 0, failed: 1 });
      expect(summary.reports[0]).toMatchObject({
        kind: 'failed',
        reason: expect.stringMatching(/locked|busy/),
      });
    } finally {
      harness.exec('ROLLBACK');
      harness.close();
    }
    expect(await run(w)).toMatchObject({ imported: 1, failed: 0 });
  });
});
