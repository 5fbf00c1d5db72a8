import path from 'node:path';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionId } from '@strand/session';
import { importTranscripts } from '../run/import-transcripts.js';
import { PACKAGE_SRC, readStore, workspace } from '../testing/fixture-dirs.js';
import { openLiveBed, settled, type LiveBed } from '../testing/live-bed.js';
import { appendMessages, readDump, restoreOpencodeDb } from '../testing/opencode-db.js';

/**
 * Live ingest of a kilo database (`kilo.db`) while "kilo" (a second connection, kept open as the
 * harness keeps it) commits further messages, as opencode's live test does with opencode's: the
 * kilo flavour keeps the WAL as the database's companion, and each commit is appended.
 */
const DUMP = readDump(path.join(PACKAGE_SRC, 'kilo', 'fixtures', 'subagent.json'));

let bed: LiveBed;
let file: string;

beforeEach(async () => {
  bed = await openLiveBed('strand-live-kilo-', 'kilo');
  file = path.join(bed.ws.source, 'kilo.db');
});

afterEach(() => bed.close());

describe('kilo live ingest', () => {
  it('messages committed to the WAL while watched are appended; the result equals a one-shot import', async () => {
    restoreOpencodeDb(DUMP, file, { messages: 2 });
    const harness = new Database(file);
    try {
      harness.pragma('journal_mode = WAL');
      harness.pragma('foreign_keys = OFF');
      const live = await bed.start();
      const main = SessionId(`kilo-${String(DUMP.rows.session![0]!.id)}`);
      const before = await bed.persistence.inspect(main);
      expect(before.events.length).toBeGreaterThan(0);

      appendMessages(harness, DUMP, 2);
      // The harness's writes are in the WAL, not yet in the database file.
      expect(existsSync(`${file}-wal`)).toBe(true);

      const whole = workspace('strand-kilo-whole-');
      try {
        restoreOpencodeDb(DUMP, path.join(whole.source, 'kilo.db'));
        await importTranscripts({ harness: 'kilo', sourceDir: whole.source, dataDir: whole.data });
        const expected = await readStore(whole.data);
        const eventsOf = async (id: string): Promise<unknown[]> =>
          (await bed.persistence.inspect(SessionId(id))).events.map((e) => ({ type: e.type, data: e.data }));
        await settled(live, async () => {
          for (const [id, log] of expected) {
            const have = await eventsOf(id).catch(() => []);
            if (have.length !== log.events.length) return false;
          }
          return true;
        });
        for (const [id, log] of expected)
          expect(await eventsOf(id)).toEqual(log.events.map((e) => ({ type: e.type, data: e.data })));
      } finally {
        whole.dispose();
      }
      // Appended to, never replaced.
      expect((await bed.persistence.inspect(main)).incarnation).toBe(before.incarnation);
      expect(bed.reports.filter((r) => r.kind !== 'note')).toEqual([]);
    } finally {
      harness.close();
    }
  });
});
