import path from 'node:path';
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionId } from '@strand/session';
import { importTranscripts } from '../run/import-transcripts.js';
import { PACKAGE_SRC, readStore, workspace } from '../testing/fixture-dirs.js';
import { openLiveBed, settled, type LiveBed } from '../testing/live-bed.js';
import { readCursorDump, restoreCursorDb, writeCursorBubbles } from '../testing/cursor-db.js';

/**
 * Live ingest of Cursor's `state.vscdb` while "Cursor" (a second connection, kept open as the
 * editor keeps it) stores further bubbles: its writes reach only the WAL, and each one is read
 * (the WAL is the database's companion) and appended to the stored chat, never replacing it.
 */
const DUMP = readCursorDump(path.join(PACKAGE_SRC, 'cursor', 'fixtures', 'db', 'tool-calls.json'));

let bed: LiveBed;
let file: string;

beforeEach(async () => {
  bed = await openLiveBed('strand-live-cursor-', 'cursor');
  file = path.join(bed.ws.source, 'state.vscdb');
});

afterEach(() => bed.close());

describe('cursor live ingest', () => {
  it('bubbles stored in the WAL while watched are appended; the result equals a one-shot import', async () => {
    const harness = restoreCursorDb(DUMP, file, { bubbles: 3 });
    try {
      const live = await bed.start();
      const chat = SessionId('cursor-c-tools');
      const before = await bed.persistence.inspect(chat);
      expect(before.events.length).toBeGreaterThan(0);

      writeCursorBubbles(harness, DUMP, 3);
      // The harness's writes are in the WAL, not yet in the database file.
      expect(existsSync(`${file}-wal`)).toBe(true);

      const whole = workspace('strand-cursor-whole-');
      try {
        restoreCursorDb(DUMP, path.join(whole.source, 'state.vscdb')).close();
        await importTranscripts({ harness: 'cursor', sourceDir: whole.source, dataDir: whole.data });
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
      expect((await bed.persistence.inspect(chat)).incarnation).toBe(before.incarnation);
      expect(bed.reports.filter((r) => r.kind !== 'note')).toEqual([]);
    } finally {
      harness.close();
    }
  });
});
