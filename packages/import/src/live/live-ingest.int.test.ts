import { appendFileSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJsonlPersistence } from '@strand/persistence';
import { SessionId } from '@strand/session';
import { PACKAGE_SRC } from '../testing/fixture-dirs.js';
import { openLiveBed, settled, type LiveBed } from '../testing/live-bed.js';
import { importTranscripts } from '../run/import-transcripts.js';
import type { LiveIngest } from './live-ingest.js';

/**
 * Live ingest in process, over real files, real fsync'd JSONL persistence and a real live store:
 * what it reports and keeps when a watched transcript shrinks, vanishes or is rewritten.
 */
const GEMINI = path.join(
  PACKAGE_SRC,
  'gemini',
  'fixtures',
  'rewind',
  'session-2026-05-01T08-00-7e7e7e7e.jsonl',
);
const ID = SessionId('gemini-7e7e7e7e-0000-4000-8000-000000000001');

let bed: LiveBed;
let file: string;

beforeEach(async () => {
  bed = await openLiveBed('strand-live-', 'gemini');
  mkdirSync(path.join(bed.ws.source, 'site', 'chats'), { recursive: true });
  file = path.join(bed.ws.source, 'site', 'chats', path.basename(GEMINI));
});

afterEach(() => bed.close());

const start = (): Promise<LiveIngest> => bed.start();

const lines = readFileSync(GEMINI, 'utf8')
  .split('\n')
  .filter((l) => l.length > 0);
const eventsOf = async (): Promise<number> => (await bed.persistence.inspect(ID)).events.length;

describe('live ingest', () => {
  it('a file present at start becomes a session; appended lines are appended, nothing replaced', async () => {
    writeFileSync(file, lines.slice(0, 2).join('\n') + '\n');
    const live = await start();
    const first = await eventsOf();
    expect(first).toBeGreaterThan(0);
    const { incarnation } = await bed.persistence.inspect(ID);
    appendFileSync(file, lines.slice(2).join('\n') + '\n');
    await settled(live, async () => (await eventsOf()) > first + 5);
    expect((await bed.persistence.inspect(ID)).incarnation).toBe(incarnation);
    expect((await bed.persistence.inspect(ID)).header.source).toEqual({
      harness: 'gemini',
      sourceId: '7e7e7e7e-0000-4000-8000-000000000001',
    });
    expect(bed.reports.filter((r) => r.kind !== 'note')).toEqual([]);
    expect(bed.store.size).toBe(0); // appended through the store, detached again
  });

  it('a truncated file is reported and its session kept as it was', async () => {
    writeFileSync(file, lines.join('\n') + '\n');
    const live = await start();
    const before = await bed.persistence.inspect(ID);
    truncateSync(file, 200);
    await settled(live, () => bed.reports.some((r) => r.reason.includes('shrank')));
    const after = await bed.persistence.inspect(ID);
    expect(after.events).toEqual(before.events);
    expect(after.incarnation).toBe(before.incarnation);
  });

  it('a deleted file is reported and its session kept', async () => {
    writeFileSync(file, lines.join('\n') + '\n');
    const live = await start();
    const before = await bed.persistence.inspect(ID);
    rmSync(file);
    await settled(live, () => bed.reports.some((r) => r.reason.includes('deleted')));
    expect((await bed.persistence.inspect(ID)).events).toEqual(before.events);
  });

  it('a file rewritten in place with content that is no extension is replaced, and says so', async () => {
    writeFileSync(file, lines.slice(0, 4).join('\n') + '\n');
    const live = await start();
    const before = await bed.persistence.inspect(ID);
    // Same length or longer, other content: the first prompt is rewritten.
    const rewritten = [
      lines[0]!,
      lines[1]!.replace('Make the header blue', 'Make the footer pink'),
      ...lines.slice(2, 6),
    ];
    writeFileSync(file, rewritten.join('\n') + '\n');
    await settled(live, () => bed.reports.some((r) => r.kind === 'replaced'));
    const after = await bed.persistence.inspect(ID);
    expect(after.incarnation).not.toBe(before.incarnation);
    expect(JSON.stringify(after.events)).toContain('Make the footer pink');
  });

  it("a second file of one session (Gemini CLI's resume stub) is reported as a copy; the session follows the file that holds more", async () => {
    writeFileSync(file, lines.slice(0, 4).join('\n') + '\n');
    const live = await start();
    const before = await bed.persistence.inspect(ID);
    // A resume in a later minute: gemini-cli opens a new file named by that minute, writes the
    // chat's metadata and its first message there, then goes on in the original file.
    const stub = path.join(bed.ws.source, 'site', 'chats', 'session-2026-05-01T08-05-7e7e7e7e.jsonl');
    writeFileSync(stub, lines.slice(0, 2).join('\n') + '\n');
    await settled(live, () => bed.reports.some((r) => r.file === stub));
    expect(bed.reports.filter((r) => r.file === stub)).toEqual([
      expect.objectContaining({
        kind: 'skipped-file',
        reason: expect.stringContaining('another copy of session'),
      }),
    ]);
    const kept = await bed.persistence.inspect(ID);
    expect(kept.incarnation).toBe(before.incarnation);
    expect(kept.events).toEqual(before.events);
    appendFileSync(stub, lines[2]! + '\n'); // the stub changing again is no second report
    appendFileSync(file, lines.slice(4).join('\n') + '\n');
    const fresh = path.join(bed.ws.root, 'fresh');
    await importTranscripts({ harness: 'gemini', sourceDir: bed.ws.source, dataDir: fresh });
    const oneShot = await openJsonlPersistence({ root: fresh });
    try {
      const want = (await oneShot.inspect(ID)).events.map(({ type, data }) => ({ type, data }));
      await settled(live, async () => (await eventsOf()) === want.length);
      await live.idle();
      const got = (await bed.persistence.inspect(ID)).events.map(({ type, data }) => ({ type, data }));
      expect(got).toEqual(want);
    } finally {
      await oneShot.close();
    }
    expect((await bed.persistence.inspect(ID)).incarnation).toBe(before.incarnation);
    expect(bed.reports.filter((r) => r.file === stub)).toHaveLength(1);
    expect(bed.reports.filter((r) => r.kind === 'replaced')).toEqual([]);
  });

  it('a catch-up given to the ingest: lines written after the import stamped the file are read', async () => {
    writeFileSync(file, lines.slice(0, 2).join('\n') + '\n');
    const target = bed.target();
    const ingest = bed.launch({
      dataDir: bed.ws.data,
      // The caller's catch-up (here into the open persistence's folder: nothing writes it
      // meanwhile), and the harness writing on before the host is open.
      catchUp: async () => {
        await importTranscripts({ harness: 'gemini', sourceDir: bed.ws.source, dataDir: bed.ws.data });
        appendFileSync(file, lines.slice(2).join('\n') + '\n');
      },
      target: () => Promise.resolve(target),
    });
    await ingest.ready;
    const whole = await importTranscripts({
      harness: 'gemini',
      sourceDir: bed.ws.source,
      dataDir: path.join(bed.ws.root, 'fresh'),
    });
    expect(whole.imported).toBe(1);
    const fresh = await openJsonlPersistence({ root: path.join(bed.ws.root, 'fresh') });
    try {
      const want = (await fresh.inspect(ID)).events.length;
      await settled(ingest, async () => (await eventsOf()) === want);
    } finally {
      await fresh.close();
    }
    expect(bed.reports.filter((r) => r.kind !== 'note')).toEqual([]);
  });

  it('a catch-up given to the ingest: a file it stamped is not read again; one created after its scan becomes a session', async () => {
    const OTHER = SessionId('gemini-7e7e7e7e-0000-4000-8000-000000000002');
    const other = path.join(bed.ws.source, 'site', 'chats', 'session-2026-05-01T09-00-7e7e7e7e.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    let imported = 0;
    const ingest = bed.launch({
      dataDir: bed.ws.data,
      catchUp: async () => {
        imported = (
          await importTranscripts({ harness: 'gemini', sourceDir: bed.ws.source, dataDir: bed.ws.data })
        ).imported;
        // Past the import's scan: only the watcher, started before the catch-up, can see it.
        writeFileSync(other, lines.join('\n').replace('000000000001', '000000000002') + '\n');
      },
    });
    await ingest.ready;
    expect(imported).toBe(1);
    await settled(ingest, async () => (await bed.persistence.revisionOf(OTHER)) !== undefined);
    expect((await bed.persistence.inspect(OTHER)).events.length).toBe(await eventsOf());
    expect(bed.reads.map((r) => r.file)).not.toContain(file);
    expect(bed.reports.filter((r) => r.kind !== 'note')).toEqual([]);
  });

  it('a target that fails to open rejects ready; nothing is read and close still works', async () => {
    writeFileSync(file, lines.join('\n') + '\n');
    const ingest = bed.launch({
      catchUp: () => Promise.resolve(),
      target: () => Promise.reject(new Error('the runtime would not open')),
    });
    await expect(ingest.ready).rejects.toThrow('the runtime would not open');
    appendFileSync(file, lines[0]! + '\n');
    await bed.stop();
    expect((await bed.persistence.list()).length).toBe(0);
  });
});
