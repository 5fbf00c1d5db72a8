import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SessionId } from '@strand/session';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { SourceLineReader } from '../source/line-reader.js';
import { parseLine } from '../source/json-record.js';
import { gooseId, isMetadata, legacySessionId, type GooseFacts } from './map-goose.js';

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** A database by its SQLite header and goose's tables; a JSONL by its first record. */
export async function peekGoose(unit: SourceUnit): Promise<Peek> {
  return unit.file.endsWith('.jsonl') ? peekJsonl(unit) : peekDb(unit);
}

async function peekDb(unit: SourceUnit): Promise<Peek> {
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
    return { kind: 'skip', reason: 'not a goose session store (not SQLite)' };
  let db: Database.Database | undefined;
  try {
    db = new Database(unit.file, { readonly: true, fileMustExist: true, timeout: 2000 });
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (t) => t.name,
      ),
    );
    if (!tables.has('sessions') || !tables.has('messages'))
      return { kind: 'skip', reason: 'not a goose session store (no sessions and messages tables)' };
  } catch (error) {
    // Locked past the timeout, or corrupt: failed, so the next run tries again.
    return { kind: 'fail', reason: `cannot read the database: ${(error as Error).message}` };
  } finally {
    db?.close();
  }
  // The database holds many sessions: its id names the database, never a session inside it.
  const digest = createHash('sha1').update(unit.file).digest('hex').slice(0, 16);
  const facts: GooseFacts = { kind: 'db' };
  return { kind: 'session', primaryId: SessionId(`goose-db-${digest}`), rank: 0, depth: 0, facts };
}

async function peekJsonl(unit: SourceUnit): Promise<Peek> {
  // goose imports its legacy files into `sessions.db` when it creates the database and never
  // reads them again (`SessionStorage::pool` → `import_legacy`): beside a database they are
  // copies of sessions it holds, under the same ids.
  try {
    await fsp.access(path.join(path.dirname(unit.file), 'sessions.db'));
    return { kind: 'skip', reason: 'a legacy goose session beside sessions.db (goose imported it there)' };
  } catch {
    // No database beside it: the file is the session.
  }
  const reader = new SourceLineReader(unit.file, false);
  for await (const line of reader.lines()) {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') continue;
    if (parsed.kind === 'bad')
      return { kind: 'skip', reason: `not a goose session (${parsed.reason})`, line: line.line };
    const record = parsed.record;
    const message = (record.role === 'user' || record.role === 'assistant') && Array.isArray(record.content);
    if (!isMetadata(record) && !message)
      return {
        kind: 'skip',
        reason: 'not a goose session (no session metadata or message)',
        line: line.line,
      };
    const sessionId = legacySessionId(unit.file);
    const facts: GooseFacts = { kind: 'jsonl', sessionId };
    return { kind: 'session', primaryId: gooseId(sessionId), rank: 0, depth: 0, facts };
  }
  return { kind: 'skip', reason: 'empty (not a goose session, or one not written yet)' };
}
