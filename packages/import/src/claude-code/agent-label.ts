import { defined } from '@strand/session';
import { promises as fsp } from 'node:fs';
import { SourceLineReader } from '../source/line-reader.js';
import { isRecord, parseLine, str, type JsonRecord } from '../source/json-record.js';

/** A subagent's description and type, as its parent asked for it. */
export interface AgentRole {
  readonly description?: string;
  readonly type?: string;
  /** The prompt the parent sent (from its call), when known. */
  readonly prompt?: string;
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
    return { ...defined({ description, type }) };
  } catch {
    // An unreadable meta file only costs the label; the parent's Task call is tried next.
    return undefined;
  }
}

/**
 * Without a meta file, the label is in the parent transcript: the `Task` (2.0) or `Agent` (2.1)
 * call whose result names this agent id (`toolUseResult.agentId`). The parent is the file that
 * holds the session (found by content by the run, see `SourceUnit.parentFile`); an absent one just
 * leaves the child without a label. The call also carries the prompt (`input.prompt`, and
 * `toolUseResult.prompt` in 2.1), which a child file that starts with the reply lacks. Lines are
 * filtered by substring before parsing, so scanning a large parent costs little more than reading it.
 */
export async function findRoleInParent(
  parentFile: string | undefined,
  agentId: string,
): Promise<AgentRole | undefined> {
  if (parentFile === undefined) return undefined;
  return scanParent(parentFile, agentId).catch(() => undefined);
}

async function scanParent(file: string, agentId: string): Promise<AgentRole | undefined> {
  const calls = new Map<string, AgentRole>();
  let found: { callId: string | undefined; prompt: string | undefined } | undefined;
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
        calls.set(block.id, roleOf(block.input));
      }
      const result = parsed.record.toolUseResult;
      if (block.type === 'tool_result' && isRecord(result) && result.agentId === agentId)
        found = { callId: str(block.tool_use_id), prompt: str(result.prompt) };
    }
    if (found !== undefined) {
      const call = found.callId === undefined ? undefined : calls.get(found.callId);
      const prompt = call?.prompt ?? found.prompt;
      return { ...call, ...defined({ prompt }) };
    }
  }
  return undefined;
}

function roleOf(input: JsonRecord): AgentRole {
  const description = str(input.description);
  const type = str(input.subagent_type);
  const prompt = str(input.prompt);
  return {
    ...defined({ description, type, prompt }),
  };
}
