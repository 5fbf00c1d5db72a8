import { existsSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionId } from '@strand/session';
import { importTranscripts } from '../run/import-transcripts.js';
import type { Harness } from '../types.js';
import { readStore, workspace } from './fixture-dirs.js';
import { openLiveBed, settled, type LiveBed } from './live-bed.js';

/** One harness that keeps its sessions in a SQLite database, for `describeDatabaseLiveIngest`. */
export interface DatabaseLiveCase {
  readonly harness: Harness;
  /** The database's path below the watched source folder (`kilo.db`, `project/.crush/crush.db`). */
  readonly file: string;
  /** A session the earlier database already holds, appended to while watched. */
  readonly session: string;
  /** What the harness stores while watched, for the test's name ("messages", "bubbles"). */
  readonly rows: string;
  /**
   * Writes the database as it stood earlier (its first rows), in WAL mode, and returns the
   * harness's own connection to it, kept open as the harness keeps it.
   */
  restoreEarlier(file: string): Database.Database;
  /** Commits the rest of the rows through the harness's connection, one transaction each. */
  commitRest(harness: Database.Database): void;
  /** Writes the whole database, for the one-shot import the live result must equal. */
  restoreWhole(file: string): void;
  /** How many sessions the whole database imports to, where the test pins it. */
  readonly sessions?: number;
}

/**
 * The live-ingest law every database-backed harness keeps: while the harness (a second connection)
 * commits further rows, its writes reach only the WAL — the database's companion — and each one
 * is read and appended to the stored sessions, never replacing them; once settled, the stored
 * sessions equal a one-shot import of the whole database.
 */
export function describeDatabaseLiveIngest(c: DatabaseLiveCase): void {
  let bed: LiveBed;
  let file: string;

  beforeEach(async () => {
    bed = await openLiveBed(`strand-live-${c.harness}-`, c.harness);
    file = path.join(bed.ws.source, c.file);
  });

  afterEach(() => bed.close());

  describe(`${c.harness} live ingest`, () => {
    it(`${c.rows} committed to the WAL while watched are appended; the result equals a one-shot import`, async () => {
      const harness = c.restoreEarlier(file);
      try {
        const live = await bed.start();
        const main = SessionId(c.session);
        const before = await bed.persistence.inspect(main);
        expect(before.events.length).toBeGreaterThan(0);

        c.commitRest(harness);
        // The harness's writes are in the WAL, not yet in the database file.
        expect(existsSync(`${file}-wal`)).toBe(true);

        const whole = workspace(`strand-${c.harness}-whole-`);
        try {
          c.restoreWhole(path.join(whole.source, c.file));
          await importTranscripts({ harness: c.harness, sourceDir: whole.source, dataDir: whole.data });
          const expected = await readStore(whole.data);
          if (c.sessions !== undefined) expect(expected.size).toBe(c.sessions);
          const eventsOf = async (id: string): Promise<unknown[]> =>
            (await bed.persistence.inspect(SessionId(id))).events.map((e) => ({
              type: e.type,
              data: e.data,
            }));
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
}
