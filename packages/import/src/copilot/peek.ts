import { SessionId } from '@strand/session';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { PEEK_CHUNK_BYTES, SourceLineReader } from '../source/line-reader.js';
import { isRecord, parseLine, str } from '../source/json-record.js';

export interface CopilotFacts {
  /** `session.start`'s `data.sessionId`: the id `copilot --resume=<id>` takes. */
  readonly sessionId: string;
}

/** Strand ids of Copilot CLI sessions: deterministic from the transcript's own ids. */
export const copilotMainId = (sessionId: string): SessionId => SessionId(`copilot-${sessionId}`);
/** A subagent, run inline in its parent's log: the parent's id plus the `task` call that started it. */
export const copilotAgentId = (sessionId: string, toolCallId: string): SessionId =>
  SessionId(`copilot-${sessionId}-agent-${toolCallId}`);

/**
 * Reads the first record: a Copilot CLI session log opens with `session.start`, whose `data` names
 * the session (`sessionId`) and its writer (`producer: "copilot-agent"`, `copilotVersion`). Every
 * record has the envelope `{type, data, id, timestamp, parentId}`.
 */
export async function peekCopilot(unit: SourceUnit): Promise<Peek> {
  const reader = new SourceLineReader(unit.file, false, PEEK_CHUNK_BYTES);
  for await (const line of reader.lines()) {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') continue;
    if (parsed.kind === 'bad')
      return { kind: 'skip', reason: `not a Copilot CLI session log (${parsed.reason})`, line: line.line };
    const record = parsed.record;
    const data = isRecord(record.data) ? record.data : undefined;
    const sessionId = str(data?.sessionId);
    if (record.type !== 'session.start' || sessionId === undefined)
      return {
        kind: 'skip',
        reason: 'not a Copilot CLI session log (its first record is not session.start with a sessionId)',
        line: line.line,
      };
    if (data?.producer !== undefined && data.producer !== 'copilot-agent')
      return {
        kind: 'skip',
        reason: `not a Copilot CLI session log (producer ${JSON.stringify(data.producer)})`,
        line: line.line,
      };
    const facts: CopilotFacts = { sessionId };
    return { kind: 'session', primaryId: copilotMainId(sessionId), rank: 0, depth: 0, facts };
  }
  return { kind: 'skip', reason: 'empty (not a Copilot CLI session log, or one not yet written)' };
}
