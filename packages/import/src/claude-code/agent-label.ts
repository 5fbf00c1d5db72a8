import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { SourceLineReader } from '../source/line-reader.js';
import { isRecord, parseLine, str } from '../source/json-record.js';

/** A subagent's description and type, as its parent asked for it. */
export interface AgentRole {
  readonly description?: string;
  readonly type?: string;
}

/** The label a descriptor carries: the description, else the type. */
export function labelOf(role: AgentRole | undefined): string | undefined {
  const label = role?.description?.trim() || role?.type?.trim();
  return label === undefined || label.length === 0 ? undefined : label;
}

/** Reads `agent-<id>.meta.json` (`{agentType, description}`; written without a trailing newline). */
export async function readAgentMeta(file: string): Promise<AgentRole | undefined> {
  try {
    const raw: unknown = JSON.parse(await fsp.readFile(file, 'utf8'));
    if (!isRecord(raw)) return undefined;
    const description = str(raw.description);
    const type = str(raw.agentType);
    return { ...(description === undefined ? {} : { description }), ...(type === undefined ? {} : { type }) };
  } catch {
    // An unreadable meta file only costs the label; the parent's Task call is tried next.
    return undefined;
  }
}

/**
 * Without a meta file, the label is in the parent transcript: the `Task` (2.0) or `Agent` (2.1)
 * call whose result names this agent id. The parent is looked for where Claude Code puts it
 * (beside a flat 2.0 agent file, or two folders up from `<session>/subagents/`); a parent that is
 * absent just leaves the child without a label. Lines are filtered by substring before parsing, so
 * scanning a large parent costs little more than reading it.
 */
export async function findRoleInParent(
  childFile: string,
  sessionId: string,
  agentId: string,
): Promise<AgentRole | undefined> {
  const dir = path.dirname(childFile);
  for (const candidate of [
    path.join(dir, `${sessionId}.jsonl`),
    path.join(dir, '..', '..', `${sessionId}.jsonl`),
  ]) {
    const exists = await fsp.stat(candidate).then(
      (s) => s.isFile(),
      () => false,
    );
    if (exists) return scanParent(candidate, agentId);
  }
  return undefined;
}

async function scanParent(file: string, agentId: string): Promise<AgentRole | undefined> {
  const calls = new Map<string, AgentRole>();
  let callId: string | undefined;
  const quotedAgent = JSON.stringify(agentId);
  for await (const line of new SourceLineReader(file, false).lines()) {
    const isCall =
      line.text.includes('"tool_use"') && (line.text.includes('"Task"') || line.text.includes('"Agent"'));
    const isResult = line.text.includes(quotedAgent);
    if (!isCall && !isResult) continue;
    const parsed = parseLine(line);
    if (parsed.kind !== 'record' || !isRecord(parsed.record.message)) continue;
    const content = parsed.record.message.content;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (!isRecord(block)) continue;
      if (
        block.type === 'tool_use' &&
        (block.name === 'Task' || block.name === 'Agent') &&
        isRecord(block.input) &&
        typeof block.id === 'string'
      ) {
        const description = str(block.input.description);
        const type = str(block.input.subagent_type);
        calls.set(block.id, {
          ...(description === undefined ? {} : { description }),
          ...(type === undefined ? {} : { type }),
        });
      }
      const result = parsed.record.toolUseResult;
      if (block.type === 'tool_result' && isRecord(result) && result.agentId === agentId)
        callId = str(block.tool_use_id);
    }
    if (callId !== undefined && calls.has(callId)) return calls.get(callId);
  }
  return undefined;
}
