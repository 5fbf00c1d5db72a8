import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { importTranscripts } from '../run/import-transcripts.js';
import { PACKAGE_SRC, readStore, workspace, type Workspace } from '../testing/fixture-dirs.js';
import { readDump, restoreOpencodeDb, type OpencodeDump } from '../testing/opencode-db.js';
import { expectEveryCutAPrefix, mapDatabase } from '../testing/database-prefix.js';
import { opencodeImporter } from './opencode-importer.js';

const FIXTURES = path.join(PACKAGE_SRC, 'opencode', 'fixtures');
const DUMPS = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.json'))
  .sort();
const dump = (name: string): OpencodeDump => readDump(path.join(FIXTURES, `${name}.json`));

let open: Workspace[] = [];
afterEach(() => {
  for (const w of open) w.dispose();
  open = [];
});

/** A fixture's database written into a fresh source folder as `opencode.db`. */
function sourceWith(name: string, limit?: { messages: number }): Workspace {
  const w = workspace('strand-opencode-');
  open.push(w);
  restoreOpencodeDb(dump(name), path.join(w.source, 'opencode.db'), limit);
  return w;
}

describe('opencode fixtures (written by the real opencode in the harness bed)', () => {
  it('has a fixture per bed scenario it was recorded from', () => {
    expect(DUMPS.length).toBeGreaterThanOrEqual(7);
    for (const name of DUMPS) expect(readDump(path.join(FIXTURES, name)).harness).toBe('opencode');
  });

  it.each(DUMPS)(
    '%s: every session imported, nothing unknown, a second run changes nothing',
    async (name) => {
      const w = sourceWith(name.replace(/\.json$/, ''));
      const first = await importTranscripts({ harness: 'opencode', sourceDir: w.source, dataDir: w.data });
      expect(first.failed).toBe(0);
      expect(first.reports.filter((r) => r.kind !== 'note')).toEqual([]);
      const sessions = dump(name.replace(/\.json$/, '')).rows.session!.length;
      expect(first.imported).toBe(sessions);
      const store = await readStore(w.data);
      for (const log of store.values()) {
        expect(log.header.source?.harness).toBe('opencode');
        expect(log.header.cwd).toMatch(/\/work$/);
      }
      const again = await importTranscripts({ harness: 'opencode', sourceDir: w.source, dataDir: w.data });
      // Not read again: the WAL and shared-memory files SQLite made beside the database on the
      // first read are not a change of it.
      expect(again).toMatchObject({ imported: 0, updated: 0, failed: 0, unchanged: sessions });
      expect(again.sessions).toEqual([]);
    },
  );

  it('subagent: the task session is a child with a descriptor labelled by the subagent type', async () => {
    const w = sourceWith('subagent');
    await importTranscripts({ harness: 'opencode', sourceDir: w.source, dataDir: w.data });
    const store = [...(await readStore(w.data)).values()];
    const child = store.find((s) => s.header.parentSession !== undefined)!;
    const parent = store.find((s) => s.header.parentSession === undefined)!;
    expect(child.header).toMatchObject({ origin: 'subagent', parentSession: parent.header.id });
    expect(child.events[0]).toMatchObject({
      type: 'subagent/descriptor',
      data: { mode: 'one-shot', label: 'general' },
    });
    const prompt = child.events.find((e) => e.type === 'user/message')!;
    expect(prompt.data).toMatchObject({ author: 'agent' });
  });

  it('titles: the title opencode generated follows the first reply', async () => {
    const w = sourceWith('multi-turn');
    await importTranscripts({ harness: 'opencode', sourceDir: w.source, dataDir: w.data });
    const [log] = [...(await readStore(w.data)).values()];
    const titles = log!.events.filter((e) => e.type === 'session/title').map((e) => e.data);
    expect(titles).toEqual([{ title: 'Please say hello.' }, { title: 'Bed conversation' }]);
  });

  it('usage: each reply once, in the log meaning (input fresh, cache reads apart)', async () => {
    const w = sourceWith('resume');
    await importTranscripts({ harness: 'opencode', sourceDir: w.source, dataDir: w.data });
    const [log] = [...(await readStore(w.data)).values()];
    const usages = log!.events
      .filter((e) => e.type === 'assistant/message')
      .map((e) => (e.data as { usage?: unknown }).usage);
    expect(usages).toEqual(Array(4).fill({ input: 120, output: 12, cacheRead: 40 }));
  });

  it('image: the attached picture is an image block; the read opencode did for it is system context', async () => {
    const w = sourceWith('image');
    await importTranscripts({ harness: 'opencode', sourceDir: w.source, dataDir: w.data });
    const [log] = [...(await readStore(w.data)).values()];
    const messages = log!.events
      .filter((e) => e.type === 'user/message')
      .map((e) => e.data as Record<string, unknown>);
    expect(messages[0]).toMatchObject({ author: 'human' });
    expect(messages[0]!.content).toEqual([
      { type: 'image', ref: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { type: 'text', text: 'What is in this picture?' },
    ]);
    expect(messages.slice(1).map((m) => m.author)).toEqual(['system', 'system']);
  });

  it('compaction: a marker where opencode compacted, the summary as a reply, its "Continue" as system context', async () => {
    const w = sourceWith('compaction');
    await importTranscripts({ harness: 'opencode', sourceDir: w.source, dataDir: w.data });
    const [log] = [...(await readStore(w.data)).values()];
    const said = log!.events
      .filter((e) => e.type === 'user/message' || e.type === 'assistant/message')
      .map((e) => {
        const d = e.data as { author?: string; content: unknown };
        return `${d.author ?? 'assistant'}: ${String(d.content).slice(0, 30)}`;
      });
    expect(said).toEqual([
      'human: Please say hello.',
      'assistant: Hello!',
      'system: [conversation compacted]',
      'assistant: The person said hello.',
      'system: Continue if you have next step',
      'assistant: Going on from the summary.',
      'human: Please go on.',
      'assistant: Going on.',
    ]);
  });

  it('interrupt: a reply never completed, with a later prompt, ends its turn interrupted', async () => {
    const w = sourceWith('interrupt');
    await importTranscripts({ harness: 'opencode', sourceDir: w.source, dataDir: w.data });
    const [log] = [...(await readStore(w.data)).values()];
    const ends = log!.events
      .filter((e) => e.type === 'turn/end')
      .map((e) => (e.data as { reason: string }).reason);
    expect(ends).toEqual(['interrupted', 'completed']);
  });
});

describe('opencode: the mapping extends, never rewrites', () => {
  it.each(DUMPS)('%s: the database cut after any message maps to a prefix of every session', async (file) => {
    const name = file.replace(/\.json$/, '');
    await expectEveryCutAPrefix(name, dump(name).rows.message!.length, (messages) => {
      const w = sourceWith(name, messages === undefined ? undefined : { messages });
      return mapDatabase(opencodeImporter, path.join(w.source, 'opencode.db'));
    });
  });
});

describe('opencode: bad input is a report, never a crash', () => {
  it('a truncated database fails with a reason and is retried; the files beside it import', async () => {
    const w = sourceWith('multi-turn');
    const db = path.join(w.source, 'opencode.db');
    // Fold the WAL into the file, then cut the file short.
    const conn = new Database(db);
    conn.pragma('wal_checkpoint(TRUNCATE)');
    conn.close();
    const bytes = readFileSync(db);
    writeFileSync(path.join(w.source, 'opencode-beta.db'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    const summary = await importTranscripts({ harness: 'opencode', sourceDir: w.source, dataDir: w.data });
    expect(summary.imported).toBe(1);
    expect(summary.failed).toBe(1);
    expect(summary.reports).toContainEqual(
      expect.objectContaining({ file: path.join(w.source, 'opencode-beta.db'), kind: 'failed' }),
    );
  });

  it('a SQLite file of another schema, and a non-SQLite .db, are skipped files', async () => {
    const w = sourceWith('multi-turn');
    const other = new Database(path.join(w.source, 'other.db'));
    other.exec('CREATE TABLE things (id TEXT)');
    other.close();
    writeFileSync(path.join(w.source, 'notes.db'), 'not a database\n');
    const summary = await importTranscripts({ harness: 'opencode', sourceDir: w.source, dataDir: w.data });
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(
      summary.reports
        .filter((r) => r.kind === 'skipped-file')
        .map((r) => path.basename(r.file))
        .sort(),
    ).toEqual(['notes.db', 'other.db']);
  });

  it('a malformed row and an unknown part type are reported; the rest of the session imports', async () => {
    const w = sourceWith('tool-calls');
    const db = new Database(path.join(w.source, 'opencode.db'));
    const parts = db.prepare('SELECT id FROM part ORDER BY id').all() as { id: string }[];
    db.prepare('UPDATE part SET data = ? WHERE id = ?').run('{"type":"text","text":', parts[1]!.id);
    db.prepare('UPDATE part SET data = ? WHERE id = ?').run('{"type":"hologram"}', parts[2]!.id);
    db.close();
    const summary = await importTranscripts({ harness: 'opencode', sourceDir: w.source, dataDir: w.data });
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.reports.map((r) => [r.kind, r.reason.replace(/prt_\w+/, 'prt')])).toEqual([
      ['skipped-record', 'part prt: malformed JSON'],
      ['skipped-record', 'unknown part type "hologram"'],
    ]);
  });

  it('reads while opencode holds a write open, and never keeps opencode from committing', async () => {
    const w = sourceWith('multi-turn');
    const file = path.join(w.source, 'opencode.db');
    const harness = new Database(file);
    harness.pragma('busy_timeout = 0');
    // opencode in the middle of a write: a transaction begun and not yet committed.
    harness.exec('BEGIN IMMEDIATE');
    harness.prepare("UPDATE session SET title = 'Renamed while read'").run();
    const summary = await importTranscripts({ harness: 'opencode', sourceDir: w.source, dataDir: w.data });
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    // The import read the last committed state, and the harness's commit goes through at once.
    expect(() => harness.exec('COMMIT')).not.toThrow();
    harness.close();
    const [log] = [...(await readStore(w.data)).values()];
    expect(log!.events.some((e) => (e.data as { title?: string }).title === 'Bed conversation')).toBe(true);
  });
});
