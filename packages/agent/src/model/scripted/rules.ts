import { defined } from '@strand/session';
import type { ModelMessage, ModelRequest } from '../model.js';
import type { ScriptStep } from './script.js';

type ToolCallStep = NonNullable<ScriptStep['toolCalls']>[number];

/** `call <tool> <json>` on a line of its own: an explicit tool call. */
const CALL_LINE = /^\s*call\s+([A-Za-z_][\w-]*)\s*(\{.*\})?\s*$/;
/** `spawn a continuable agent "label" (forked): task` — the friendly form of `spawn_agent`. */
const SPAWN =
  /^\s*spawn\s+(?:an?\s+)?(one-shot|continuable)\s+(?:sub)?agent(?:\s+"([^"]+)")?(\s+forked)?\s*:\s*(.+)$/is;
/** `tell <id>: message` — the friendly form of `send_message`. */
const TELL = /^\s*tell\s+(\S+?)\s*:\s*(.+)$/is;
/** `list agents` (children) or `list all agents` (the whole tree). */
const LIST = /^\s*list\s+(?:my\s+)?(all\s+)?(?:sub)?agents\b/i;

/**
 * The default, deterministic rule set: a pure function of the request.
 *
 * - After tool results: a summary of them (one line per call), and the turn ends.
 * - A prompt with `call <tool> {json}` lines, `spawn … agent …: task`, `tell <id>: message`,
 *   `list agents` or `list all agents`: the matching tool calls.
 * - Anything else: an echo with a word count.
 */
export function ruleStep(request: ModelRequest): ScriptStep {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return { text: summarizeToolResults(request.messages) };
  const prompt = lastUserText(request.messages);
  const calls = toolCallsIn(prompt);
  if (calls.length > 0) return { text: '', toolCalls: calls };
  return { text: echo(prompt) };
}

function toolCallsIn(prompt: string): ToolCallStep[] {
  const explicit: ToolCallStep[] = [];
  for (const line of prompt.split('\n')) {
    const match = CALL_LINE.exec(line);
    if (match !== null) explicit.push({ name: match[1]!, arguments: match[2] ?? '{}' });
  }
  if (explicit.length > 0) return explicit;
  const spawn = SPAWN.exec(prompt);
  if (spawn !== null) {
    const [, mode, label, forked, task] = spawn;
    return [
      {
        name: 'spawn_agent',
        arguments: {
          task: task!.trim(),
          mode,
          ...defined({ label }),
          ...(forked === undefined ? {} : { fork: true }),
        },
      },
    ];
  }
  const tell = TELL.exec(prompt);
  if (tell !== null)
    return [{ name: 'send_message', arguments: { agent_id: tell[1], message: tell[2]!.trim() } }];
  const list = LIST.exec(prompt);
  if (list !== null)
    return [
      { name: 'list_agents', arguments: { scope: list[1] === undefined ? 'children' : 'descendants' } },
    ];
  return [];
}

function lastUserText(messages: readonly ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user') return message.content;
  }
  return '';
}

function echo(prompt: string): string {
  const flat = prompt.replace(/\s+/g, ' ').trim();
  if (flat.length === 0) return 'You said nothing.';
  const words = flat.split(' ').length;
  const quoted = flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
  return `You said: "${quoted}" (${words} ${words === 1 ? 'word' : 'words'}).`;
}

/** One line per tool result of the last step, naming the tool the model called. */
function summarizeToolResults(messages: readonly ModelMessage[]): string {
  const results: { callId: string; content: string }[] = [];
  let i = messages.length - 1;
  for (; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'tool') break;
    results.unshift({ callId: message.callId, content: message.content });
  }
  const assistant = messages[i];
  const names = new Map(
    assistant?.role === 'assistant' ? assistant.toolCalls.map((c) => [c.id, c.name]) : [],
  );
  const lines = results.map(({ callId, content }) => {
    const first = content.split('\n').find((line) => line.trim().length > 0) ?? '';
    const short = first.length > 200 ? `${first.slice(0, 199)}…` : first;
    return `- ${names.get(callId) ?? 'tool'}: ${short}`;
  });
  return `Tool results:\n${lines.join('\n')}`;
}
