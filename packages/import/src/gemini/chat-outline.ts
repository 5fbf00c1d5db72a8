import { FileReports } from '../mapping/file-reports.js';
import { isRecord, str, timeOf } from '../source/json-record.js';
import type { ChatOutline } from './chat-place.js';
import { readChat } from './read-chat.js';

// The tool gemini-cli's main agent calls to run a nested agent in a chat of its own.
const DELEGATE = 'delegate_to_agent';

/** A chat file's outline, or undefined when it cannot be read as a chat (the map step says why). */
export async function outlineChat(file: string): Promise<ChatOutline | undefined> {
  // Problems of the file are reported when it is mapped; the outline only needs its ids.
  const read = await readChat(file, new FileReports(file)).catch(() => undefined);
  if (read?.kind !== 'ok') return undefined;
  const { meta, messages } = read.folded;
  const sessionId = str(meta.sessionId);
  if (sessionId === undefined) return undefined;
  const ids: string[] = [];
  const delegations: { at: number; agent?: string }[] = [];
  for (const { record } of messages) {
    if (typeof record.id === 'string') ids.push(record.id);
    const calls = Array.isArray(record.toolCalls) ? record.toolCalls.filter(isRecord) : [];
    for (const call of calls) {
      if (call.name !== DELEGATE) continue;
      // The message is written when the model asks; the call's own stamp may be its completion.
      const stamps = [timeOf(record.timestamp), timeOf(call.timestamp)].filter((t) => t !== undefined);
      const at = stamps.length === 0 ? undefined : Math.min(...stamps);
      const agent = isRecord(call.args) ? str(call.args.agent_name) : undefined;
      if (at !== undefined) delegations.push({ at, ...(agent === undefined ? {} : { agent }) });
    }
  }
  const startTime = timeOf(meta.startTime) ?? timeOf(messages[0]?.record.timestamp);
  return { file, sessionId, startTime, ids, delegations };
}
