import path from 'node:path';
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionId } from '@strand/session';
import { importTranscripts } from '../run/import-transcripts.js';
import { PACKAGE_SRC, readStore, workspace } from '../testing/fixture-dirs.js';
import { openLiveBed, settled, type LiveBed } from '../testing/live-bed.js';
import { appendGooseMessages, readGooseDump, restoreGooseDb } from '../testing/goose-db.js';

/**
 * Live ingest of goose's `sessions.db` while "goose" (a second connection, kept open as goose's
 * pool keeps it) commits further messages: its writes reach only the WAL, and each one is read
 * (the WAL is the database's companion) and appended to the stored sessions, never replacing them.
 */
const DUMP = readGooseDump(path.join(PACKAGE_SRC, 'goose', 'fixtures', 'db', 'tool-calls.json'));

let bed: LiveBed;
let file: string;

beforeEach(async () => {
  bed = await openLiveBed('strand-live-goose-', 'goose');
  file = path.join(bed.ws.source, 'sessions.db');
});

afterEach(() => bed.close());

describe('goose live ingest', () => {
  it('messages committed to the WAL while watched are appended; the result equals a one-shot import', async () => {
    const harness = restoreGooseDb(DUMP, file, { messages: 3 });
    try {
      const live = await bed.start();
      const main = SessionId(`goose-${String(DUMP.rows.sessions[0]!.id)}`);
      const before = await bed.persistence.inspect(main);
      expect(before.events.length).toBeGreaterThan(0);

      appendGooseMessages(harness, DUMP, 3);
      // The harness's writes are in the WAL, not yet in the database file.
      expect(existsSync(`${file}-wal`)).toBe(true);

      const whole = workspace('strand-goose-whole-');
      try {
        restoreGooseDb(DUMP, path.join(whole.source, 'sessions.db')).close();
        await importTranscripts({ harness: 'goose', sourceDir: whole.source, dataDir: whole.data });
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
