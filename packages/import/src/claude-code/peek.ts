import path from 'node:path';
import { PEEK_CHUNK_BYTES, SourceLineReader } from '../source/line-reader.js';
import { parseLine, str } from '../source/json-record.js';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { claudeAgentId, claudeMainId } from './ids.js';

export interface ClaudeFacts {
  readonly sessionId: string;
  /** Set for a subagent file (2.0+): every line carries the agent id and `isSidechain: true`. */
  readonly agentId?: string;
}

const CONVERSATION = new Set(['user', 'assistant', 'system']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads up to the first conversation record: its `sessionId` names the session, and an `agentId`
 * on a sidechain record marks a subagent file. Files are linked by these ids, never by path.
 */
export async function peekClaude(unit: SourceUnit): Promise<Peek> {
  const reader = new SourceLineReader(unit.file, false, PEEK_CHUNK_BYTES);
  let sessionId: string | undefined;
  for await (const line of reader.lines()) {
    const parsed = parseLine(line);
    if (parsed.kind !== 'record') continue;
    const record = parsed.record;
    sessionId ??= str(record.sessionId);
    if (!CONVERSATION.has(str(record.type) ?? '')) continue;
    sessionId ??= fromFileName(unit.file);
    if (sessionId === undefined)
      return { kind: 'skip', reason: 'no sessionId on the first conversation record' };
    const agentId = record.isSidechain === true ? str(record.agentId) : undefined;
    const facts: ClaudeFacts = agentId === undefined ? { sessionId } : { sessionId, agentId };
    return {
      kind: 'session',
      primaryId: agentId === undefined ? claudeMainId(sessionId) : claudeAgentId(sessionId, agentId),
      rank: 0,
      depth: agentId === undefined ? 0 : 1,
      // A subagent file's label (and a missing prompt) are in its parent's Task/Agent call.
      ...(agentId === undefined ? {} : { readsParent: claudeMainId(sessionId) }),
      facts,
    };
  }
  return { kind: 'skip', reason: 'no conversation records (not a Claude Code transcript, or an empty one)' };
}

function fromFileName(file: string): string | undefined {
  const stem = path.basename(file, '.jsonl');
  return UUID.test(stem) ? stem : undefined;
}
