import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { importTranscripts } from '../run/import-transcripts.js';
import type { Harness } from '../types.js';
import { workspacesPerTest } from './dump-fixtures.js';
import type { Workspace } from './fixture-dirs.js';

/** One harness that keeps its sessions in one SQLite database, for `describeDatabaseBadInput`. */
export interface DatabaseBadInputCase {
  readonly harness: Harness;
  /** The database's file name in the source folder (`sessions.db`, `state.vscdb`). */
  readonly file: string;
  /** Writes a database (WAL mode, closed) that imports to `sessions` sessions. */
  restore(file: string): void;
  readonly sessions: number;
  /** A write the harness holds open (uncommitted) while Strand reads. */
  writeHeld(harness: Database.Database): void;
  /** Writes, into a database of the harness's file name, tables of another schema (a needed column missing). */
  writeOtherSchema(db: Database.Database): void;
  /** The skipped report's reason for that database. */
  readonly otherSchemaReason: RegExp;
  /** What the import read while the write was held open (the snapshot before it), checked after. */
  readBefore?(w: Workspace): Promise<void>;
}

/**
 * The bad-input law every single-database harness keeps: another schema, another SQLite file and
 * a file that is not SQLite are skipped files; a truncated copy fails alone (retried next run)
 * while the database beside it imports; a database locked exclusively fails and imports
 * once it is free; a write the harness holds open neither blocks the read nor is blocked by it.
 */
export function describeDatabaseBadInput(c: DatabaseBadInputCase): void {
  const freshWorkspace = workspacesPerTest(`strand-${c.harness}-`);
  const source = (): { w: Workspace; db: string } => {
    const w = freshWorkspace();
    const db = path.join(w.source, c.file);
    mkdirSync(w.source, { recursive: true });
    c.restore(db);
    return { w, db };
  };
  const importOnce = (w: Workspace) =>
    importTranscripts({ harness: c.harness, sourceDir: w.source, dataDir: w.data });

  describe(`${c.harness}: a database that cannot be read now is a report, never a crash`, () => {
    it('another schema, another SQLite file and a file that is not SQLite are skipped files', async () => {
      const { w } = source();
      const ext = path.extname(c.file);
      mkdirSync(path.join(w.source, 'x'));
      const odd = new Database(path.join(w.source, 'x', c.file));
      c.writeOtherSchema(odd);
      odd.close();
      const other = new Database(path.join(w.source, `other${ext}`));
      other.exec('CREATE TABLE things (id TEXT)');
      other.close();
      writeFileSync(path.join(w.source, `notes${ext}`), 'not a database\n');
      const summary = await importOnce(w);
      expect(summary).toMatchObject({ imported: c.sessions, failed: 0 });
      const skipped = summary.reports.filter((r) => r.kind === 'skipped-file');
      expect(skipped.map((r) => path.relative(w.source, r.file)).sort()).toEqual([
        `notes${ext}`,
        `other${ext}`,
        path.join('x', c.file),
      ]);
      expect(skipped.find((r) => r.file.endsWith(path.join('x', c.file)))!.reason).toMatch(
        c.otherSchemaReason,
      );
    });

    it('a truncated database fails with a reason; the database beside it imports', async () => {
      const { w, db } = source();
      const conn = new Database(db);
      conn.pragma('wal_checkpoint(TRUNCATE)');
      conn.close();
      const bytes = readFileSync(db);
      mkdirSync(path.join(w.source, 'copy'));
      const torn = path.join(w.source, 'copy', c.file);
      writeFileSync(torn, bytes.subarray(0, Math.floor(bytes.length / 2)));
      const summary = await importOnce(w);
      expect(summary).toMatchObject({ imported: c.sessions, failed: 1 });
      expect(summary.reports).toContainEqual(expect.objectContaining({ file: torn, kind: 'failed' }));
    });

    it('a database locked exclusively fails (retried next run) and imports once it is free', async () => {
      const { w, db } = source();
      const holder = new Database(db);
      // A process holding the file in exclusive locking mode: no other connection can read it.
      holder.pragma('locking_mode = EXCLUSIVE');
      holder.exec('BEGIN EXCLUSIVE');
      const locked = await importOnce(w);
      expect(locked).toMatchObject({ imported: 0, failed: 1 });
      expect(locked.reports.map((r) => r.kind)).toEqual(['failed']);
      expect(locked.reports[0]!.reason).toMatch(/^cannot read the database: /);
      holder.exec('COMMIT');
      holder.close();
      expect(await importOnce(w)).toMatchObject({ imported: c.sessions, failed: 0 });
    });

    it(`reads while ${c.harness} holds a write open, and never keeps it from committing`, async () => {
      const { w, db } = source();
      const harness = new Database(db);
      harness.pragma('busy_timeout = 0');
      harness.exec('BEGIN IMMEDIATE');
      c.writeHeld(harness);
      const summary = await importOnce(w);
      expect(summary).toMatchObject({ imported: c.sessions, failed: 0 });
      expect(() => harness.exec('COMMIT')).not.toThrow();
      harness.close();
      await c.readBefore?.(w);
    });
  });
}
