import { defined } from '@strand/session';
import { SourceLineReader } from '../source/line-reader.js';
import { isRecord, parseLine, str, type JsonRecord } from '../source/json-record.js';
import { isCompressed } from './discover.js';

/** What a parent rollout's collaboration calls say about one spawned child. */
export interface ParentCalls {
  /** `spawn_agent` `agent_type` of the call whose output named the child. */
  readonly agentType?: string;
  /** The nickname that call's output gave the child. */
  readonly nickname?: string;
  /** Messages the parent sent the child with `send_input`: in the child they are the agent's, not a person's. */
  readonly sent: ReadonlySet<string>;
}

/**
 * Reads the parent's `spawn_agent` / `send_input` calls about `childId` (0.104+: `spawn_agent`
 * `{agent_type, message}` → output `{agent_id, nickname}`; `send_input` `{id, message}`). Lines are
 * filtered by substring first, so a large parent costs little more than reading it. An unreadable
 * parent yields nothing: the child then keeps its own facts only.
 */
export async function readParentCalls(parentFile: string | undefined, childId: string): Promise<ParentCalls> {
  const none: ParentCalls = { sent: new Set() };
  if (parentFile === undefined) return none;
  const spawns = new Map<string, string | undefined>();
  const sent = new Set<string>();
  let found: { agentType?: string; nickname?: string } | undefined;
  try {
    for await (const line of new SourceLineReader(parentFile, isCompressed(parentFile)).lines()) {
      const text = line.text;
      if (!text.includes('spawn_agent') && !text.includes('send_input') && !text.includes(childId)) continue;
      const parsed = parseLine(line);
      if (parsed.kind !== 'record' || !isRecord(parsed.record.payload)) continue;
      const p = parsed.record.payload;
      if (p.type === 'function_call') {
        const args = jsonOf(p.arguments);
        const callId = str(p.call_id);
        if (p.name === 'spawn_agent' && callId !== undefined) spawns.set(callId, str(args?.agent_type));
        else if (p.name === 'send_input' && (args?.id === childId || args?.agent_id === childId)) {
          const message = str(args.message)?.trim();
          if (message !== undefined && message.length > 0) sent.add(message);
        }
      } else if (p.type === 'function_call_output' && found === undefined) {
        const callId = str(p.call_id);
        const output = jsonOf(p.output);
        if (callId !== undefined && spawns.has(callId) && output?.agent_id === childId) {
          const agentType = spawns.get(callId);
          const nickname = str(output.nickname);
          found = {
            ...defined({ agentType, nickname }),
          };
        }
      }
    }
  } catch {
    // A parent that cannot be read only costs the child its labels and follow-up authors.
    return none;
  }
  return { ...found, sent };
}

function jsonOf(value: unknown): JsonRecord | undefined {
  if (isRecord(value)) return value;
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    // Arguments or output that are not JSON name no agent.
    return undefined;
  }
}
