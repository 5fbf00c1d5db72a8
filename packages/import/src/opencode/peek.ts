import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import Database from 'better-sqlite3';
import { SessionId } from '@strand/session';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { OPENCODE, type StoreFlavour } from './flavour.js';

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/**
 * A database is recognised by content: the SQLite header, then opencode's `session`, `message`
 * and `part` tables. It holds many sessions, so its `primaryId` names the database (a digest of
 * its path, `<harness>-db-…`), not a session: two databases are never taken for copies of one session, and the
 * sessions inside are found when it is mapped.
 */
export async function peekOpencode(unit: SourceUnit, flavour: StoreFlavour = OPENCODE): Promise<Peek> {
  const head = Buffer.alloc(16);
  let bytesRead: number;
  try {
    const handle = await fsp.open(unit.file, 'r');
    try {
      ({ bytesRead } = await handle.read(head, 0, 16, 0));
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { kind: 'fail', reason: `cannot read the database: ${(error as Error).message}` };
  }
  if (bytesRead < 16 || head.toString('latin1') !== SQLITE_MAGIC)
    return { kind: 'skip', reason: `not ${flavour.article} database (not SQLite)` };
  let db: Database.Database | undefined;
  try {
    db = new Database(unit.file, { readonly: true, fileMustExist: true, timeout: 2000 });
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (t) => t.name,
      ),
    );
    if (!['session', 'message', 'part'].every((t) => tables.has(t)))
      return {
        kind: 'skip',
        reason: `not ${flavour.article} database (no session, message and part tables)`,
      };
  } catch (error) {
    // Locked past the timeout, or corrupt: failed, so the next run tries again.
    return { kind: 'fail', reason: `cannot read the database: ${(error as Error).message}` };
  } finally {
    db?.close();
  }
  const digest = createHash('sha1').update(unit.file).digest('hex').slice(0, 16);
  return {
    kind: 'session',
    primaryId: SessionId(`${flavour.harness}-db-${digest}`),
    rank: 0,
    depth: 0,
    facts: {},
  };
}
