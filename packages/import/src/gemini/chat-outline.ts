import { defined } from '@strand/session';
import { FileReports } from '../mapping/file-reports.js';
import { isRecord, str, timeOf, type JsonRecord } from '../source/json-record.js';
import type { ChatOutline } from './chat-place.js';
import type { DelegationCall } from './delegation-match.js';
import { readChat } from './read-chat.js';

// The tool gemini-cli's main agent called to run a nested agent in a chat of its own (from
// 0.2x, Dec 2025), naming the agent in `agent_name`.
const DELEGATE = 'delegate_to_agent';
// From Jan 2026 each agent was a tool of its own, named as the agent (nested chats shared the
// sessionId until subagents moved to `chats/<parent>/` in late March 2026): the built-in ones are
// known by name.
const AGENT_TOOLS = new Set(['codebase_investigator', 'cli_help', 'generalist', 'browser_agent']);

/** A chat file's outline, or undefined when it cannot be read as a chat (the map step says why). */
export async function outlineChat(file: string): Promise<ChatOutline | undefined> {
  // Problems of the file are reported when it is mapped; the outline only needs its ids.
  const read = await readChat(file, new FileReports(file)).catch(() => undefined);
  if (read?.kind !== 'ok') return undefined;
  const { meta, messages } = read.folded;
  const sessionId = str(meta.sessionId);
  if (sessionId === undefined) return undefined;
  const ids: string[] = [];
  const delegations: DelegationCall[] = [];
  const opening: string[] = [];
  let replied = false;
  for (const { record } of messages) {
    if (typeof record.id === 'string') ids.push(record.id);
    if (record.type === 'gemini') replied = true;
    if (record.type === 'user' && !replied) opening.push(...texts(record.content));
    const calls = Array.isArray(record.toolCalls) ? record.toolCalls.filter(isRecord) : [];
    for (const call of calls) {
      const delegation = delegationOf(record, call);
      if (delegation !== undefined) delegations.push(delegation);
    }
  }
  const startTime = timeOf(meta.startTime) ?? timeOf(messages[0]?.record.timestamp);
  return {
    file,
    sessionId,
    startTime,
    ids,
    ...(opening.length === 0 ? {} : { prompt: opening.join('\n') }),
    delegations,
  };
}

function delegationOf(message: JsonRecord, call: JsonRecord): DelegationCall | undefined {
  const name = str(call.name);
  if (name === undefined || (name !== DELEGATE && !AGENT_TOOLS.has(name))) return undefined;
  // The message is written when the model asks; the call's own stamp may be its completion.
  const stamps = [timeOf(message.timestamp), timeOf(call.timestamp)].filter((t) => t !== undefined);
  if (stamps.length === 0) return undefined;
  const args = isRecord(call.args) ? call.args : {};
  const agent = name === DELEGATE ? str(args.agent_name) : name;
  const id = str(call.id);
  const inputs = Object.entries(args)
    .filter(([key, value]) => !(name === DELEGATE && key === 'agent_name') && typeof value === 'string')
    .map(([, value]) => value as string);
  return {
    at: Math.min(...stamps),
    inputs,
    ...defined({ id, agent }),
  };
}

/** The text parts of a message's content (a string, or parts). */
function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  const parts = Array.isArray(content) ? content : [content];
  return parts.flatMap((part) =>
    typeof part === 'string' ? [part] : isRecord(part) && typeof part.text === 'string' ? [part.text] : [],
  );
}

/**
 * What of a chat file decides where its same-session siblings go (`placeChat`): its session,
 * start, first message (whether it takes part, and its key), opening prompt and delegation calls.
 * A streamed reply rewrites its message and leaves these as they were. Undefined when the file
 * cannot be read as a chat.
 */
export async function chatPlacementKey(file: string): Promise<string | undefined> {
  const outline = await outlineChat(file);
  if (outline === undefined) return undefined;
  const { sessionId, startTime, ids, prompt, delegations } = outline;
  return JSON.stringify([sessionId, startTime ?? null, ids[0] ?? null, prompt ?? null, delegations]);
}
