import { SessionId, defined } from '@strand/session';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { PEEK_CHUNK_BYTES, SourceLineReader } from '../source/line-reader.js';
import { count, isRecord, parseLine, str, timeOf } from '../source/json-record.js';
import { isCompressed } from './discover.js';

/** What a rollout's first line says about the session. */
export interface CodexFacts {
  readonly id: string;
  readonly compressed: boolean;
  readonly legacy: boolean;
  readonly createdAt: number | undefined;
  /** Envelope time of the first line: a fork's replayed history is stamped at this instant. */
  readonly firstLineTime: number | undefined;
  readonly cwd: string | undefined;
  readonly provider: string;
  readonly forkedFrom: string | undefined;
  /** `source.subagent.thread_spawn`: the rollout is a subagent child. */
  readonly spawn:
    | {
        /** Absent for the string form `source: {"subagent": "review"}`, which names no parent thread. */
        readonly parent?: string;
        readonly depth: number;
        readonly nickname?: string;
        readonly role?: string;
      }
    | undefined;
}

export const codexId = (id: string): SessionId => SessionId(`codex-${id}`);

/**
 * Reads line 1: a modern `session_meta` envelope, or the legacy bare header `{id, timestamp,
 * instructions}` of rollouts before `session_meta` existed.
 */
export async function peekCodex(unit: SourceUnit): Promise<Peek> {
  const compressed = isCompressed(unit.file);
  const reader = new SourceLineReader(unit.file, compressed, PEEK_CHUNK_BYTES);
  for await (const line of reader.lines()) {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') continue;
    if (parsed.kind === 'bad') return { kind: 'skip', reason: parsed.reason, line: line.line };
    const facts = readFacts(parsed.record, compressed);
    if (facts === undefined)
      return {
        kind: 'skip',
        reason: 'first line is neither session_meta nor a legacy rollout header (not a Codex rollout)',
      };
    return {
      kind: 'session',
      primaryId: codexId(facts.id),
      rank: 0,
      ...(facts.forkedFrom === undefined ? {} : { forkParent: codexId(facts.forkedFrom) }),
      // A spawned child's label and its follow-ups' author are in its parent's collaboration calls.
      ...(facts.spawn?.parent === undefined ? {} : { readsParent: codexId(facts.spawn.parent) }),
      depth: facts.spawn?.depth ?? (facts.forkedFrom === undefined ? 0 : 1),
      facts,
    };
  }
  if (reader.end?.zstd === 'corrupt')
    return { kind: 'fail', reason: `zstd data is corrupt: ${reader.end.zstdError ?? ''}`.trim() };
  return { kind: 'skip', reason: 'empty file' };
}

function readFacts(record: Record<string, unknown>, compressed: boolean): CodexFacts | undefined {
  if (record.type === 'session_meta' && isRecord(record.payload)) {
    const p = record.payload;
    const id = str(p.id);
    if (id === undefined) return undefined;
    const subagent = isRecord(p.source) ? p.source.subagent : undefined;
    const thread = isRecord(subagent) && isRecord(subagent.thread_spawn) ? subagent.thread_spawn : undefined;
    const parent = thread === undefined ? undefined : str(thread.parent_thread_id);
    const nickname = str(thread?.agent_nickname) ?? str(p.agent_nickname);
    // The string form (`{"subagent": "review"}`) names the kind of subagent and no parent thread.
    const kind = typeof subagent === 'string' ? subagent : undefined;
    const role = str(thread?.agent_role) ?? str(p.agent_role) ?? kind;
    return {
      id,
      compressed,
      legacy: false,
      createdAt: timeOf(p.timestamp) ?? timeOf(record.timestamp),
      firstLineTime: timeOf(record.timestamp),
      cwd: str(p.cwd),
      provider: str(p.model_provider) ?? 'openai',
      forkedFrom: str(p.forked_from_id),
      spawn:
        parent === undefined && kind === undefined
          ? undefined
          : {
              ...defined({ parent }),
              depth: Math.max(1, count(thread?.depth)),
              ...defined({ nickname, role }),
            },
    };
  }
  if (record.type === undefined && typeof record.id === 'string' && typeof record.timestamp === 'string') {
    const time = timeOf(record.timestamp);
    return {
      id: record.id,
      compressed,
      legacy: true,
      createdAt: time,
      firstLineTime: time,
      cwd: undefined,
      provider: 'openai',
      forkedFrom: undefined,
      spawn: undefined,
    };
  }
  return undefined;
}
