import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { peekSqliteStore } from '../source/sqlite-store.js';
import { PEEK_CHUNK_BYTES, SourceLineReader } from '../source/line-reader.js';
import { parseLine } from '../source/json-record.js';
import { gooseId, isMetadata, legacySessionId, type GooseFacts } from './map-goose.js';

/** A database by its SQLite header and goose's tables; a JSONL by its first record. */
export async function peekGoose(unit: SourceUnit): Promise<Peek> {
  return unit.file.endsWith('.jsonl') ? peekJsonl(unit) : peekDb(unit);
}

function peekDb(unit: SourceUnit): Promise<Peek> {
  const facts: GooseFacts = { kind: 'db' };
  return peekSqliteStore(unit, {
    what: 'a goose session store',
    tables: ['sessions', 'messages'],
    idPrefix: 'goose',
    facts,
  });
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
  const reader = new SourceLineReader(unit.file, false, PEEK_CHUNK_BYTES);
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
