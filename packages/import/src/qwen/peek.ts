import { SessionId, defined } from '@strand/session';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { PEEK_CHUNK_BYTES, SourceLineReader } from '../source/line-reader.js';
import { isRecord, parseLine, str } from '../source/json-record.js';

export interface QwenFacts {
  readonly sessionId: string;
  /** Set for a subagent's transcript: every record carries its `agentId` and `isSidechain: true`. */
  readonly agentId?: string;
  /** A `parent_session` record ahead of the conversation: the session another one started. */
  readonly parentSessionId?: string;
}

/** Strand ids of Qwen Code sessions: deterministic from the transcript's own ids. */
export const qwenMainId = (sessionId: string): SessionId => SessionId(`qwen-${sessionId}`);
/** A subagent's transcript: the parent's session id (its records carry it) plus the agent id. */
export const qwenAgentId = (sessionId: string, agentId: string): SessionId =>
  SessionId(`qwen-${sessionId}-agent-${agentId}`);

const RECORD_TYPES = new Set(['user', 'assistant', 'tool_result', 'system']);
// Qwen Code writes session metadata records (a title, a source, a parent) ahead of the first
// message only now and then; a file whose first records say nothing either way is not read to
// its end.
const PEEK_RECORDS = 64;

/**
 * Reads up to the first record with a message. Qwen Code's records share their envelope with
 * Claude Code's (`uuid`, `parentUuid`, `sessionId`, `type`), so the message decides: Gemini-style
 * `parts` are Qwen Code's, Anthropic-style `content` is not. A subagent's records carry the
 * parent's `sessionId` and their own `agentId`; files are linked by these ids, never by path.
 */
export async function peekQwen(unit: SourceUnit): Promise<Peek> {
  const reader = new SourceLineReader(unit.file, false, PEEK_CHUNK_BYTES);
  let parentSessionId: string | undefined;
  let seen = 0;
  for await (const line of reader.lines()) {
    const parsed = parseLine(line);
    if (parsed.kind !== 'record') continue;
    if (++seen > PEEK_RECORDS) break;
    const record = parsed.record;
    const type = str(record.type);
    const sessionId = str(record.sessionId);
    if (
      type === undefined ||
      !RECORD_TYPES.has(type) ||
      sessionId === undefined ||
      str(record.uuid) === undefined
    )
      return {
        kind: 'skip',
        reason: 'not a Qwen Code transcript (no uuid, sessionId and record type)',
        line: line.line,
      };
    if (type === 'system' && record.subtype === 'parent_session' && isRecord(record.systemPayload))
      parentSessionId ??= str(record.systemPayload.parentSessionId);
    if (!isRecord(record.message)) continue;
    if (!Array.isArray(record.message.parts))
      return { kind: 'skip', reason: 'not a Qwen Code transcript (messages without parts)', line: line.line };
    const agentId = record.isSidechain === true ? str(record.agentId) : undefined;
    const facts: QwenFacts = {
      sessionId,
      ...defined({ agentId }),
      ...(agentId !== undefined || parentSessionId === undefined ? {} : { parentSessionId }),
    };
    return {
      kind: 'session',
      primaryId: agentId === undefined ? qwenMainId(sessionId) : qwenAgentId(sessionId, agentId),
      rank: 0,
      depth: agentId === undefined && parentSessionId === undefined ? 0 : 1,
      facts,
    };
  }
  return { kind: 'skip', reason: 'no messages (not a Qwen Code transcript, or an empty one)' };
}
