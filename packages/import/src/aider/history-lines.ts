import { usage, type Usage } from '../mapping/usage.js';

/**
 * The lines aider's `InputOutput.append_chat_history` writes (aider/io.py), told apart:
 * - `# aider chat started at <YYYY-MM-DD HH:MM:SS>` opens a session (local wall-clock time);
 * - `#### <line>` is a line of what the person submitted (`user_input`: a multi-line prompt is one
 *   `####` line per line, each ending in two spaces, `linebreak=True`);
 * - `> <line>` is a status line (`tool_output`, `tool_warning`, `tool_error`, confirmations), also
 *   ending in two spaces;
 * - anything else is the assistant's reply (`ai_output`: the reply stripped, a blank line before
 *   and after it).
 */
export type HistoryLine =
  | { readonly kind: 'start'; readonly time: number | undefined; readonly text: string }
  | { readonly kind: 'prompt'; readonly text: string; readonly marked: boolean }
  | { readonly kind: 'status'; readonly text: string; readonly marked: boolean }
  | { readonly kind: 'blank' }
  | { readonly kind: 'text'; readonly text: string };

// `# Aider chat started at` in aider's first weeks (May 2023).
const START = /^# aider chat started at (\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\s*$/i;
const START_PREFIX = /^# aider chat started at/i;

const HASH = 0x23;
const GT = 0x3e;
const BLANK: HistoryLine = Object.freeze({ kind: 'blank' });

/** Classifies one line (without its terminator). `marked`: it ends in aider's two spaces. */
export function classifyLine(text: string): HistoryLine {
  // Most lines are reply text: told by their first character, without a copy or a regex.
  // (An empty line is told first: `charCodeAt` past the end deoptimizes the callers it is inlined in.)
  if (text.length === 0) return BLANK;
  const first = text.charCodeAt(0);
  if (first !== HASH && first !== GT) {
    if (first <= 32 && text.trim().length === 0) return BLANK;
    return { kind: 'text', text };
  }
  if (START_PREFIX.test(text)) {
    const m = START.exec(text);
    return {
      kind: 'start',
      // The time has no zone: aider writes the machine's local time, so it is read as local time.
      time: m === null ? undefined : new Date(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!).getTime(),
      text,
    };
  }
  const marked = text.endsWith('  ');
  if (text === '####' || text.startsWith('#### '))
    return { kind: 'prompt', text: unmark(text.slice(5)), marked };
  if (text === '>' || text.startsWith('> '))
    return { kind: 'status', text: unmark(text.slice(2)).trim(), marked };
  return { kind: 'text', text };
}

/** The line as written before aider appended its two spaces. */
const unmark = (text: string): string => (text.endsWith('  ') ? text.slice(0, -2) : text);

const TOKENS =
  /^Tokens: ([\d.,]+[kKmM]?) sent(?:, ([\d.,]+[kKmM]?) cache write)?(?:, ([\d.,]+[kKmM]?) cache hit)?, ([\d.,]+[kKmM]?) received\./;

/**
 * A `Tokens: …` status line (aider/coders/base_coder.py `calculate_and_show_tokens_and_cost`):
 * `Tokens: 12k sent, 1.2k cache write, 3.4k cache hit, 518 received. Cost: $0.02 message, $0.04
 * session.` "sent" is the prompt tokens, cache reads included, plus the cache writes aider adds
 * (Anthropic-style usage); fresh input is what is left without both. Aider rounds (`9.7k`) since
 * 0.5x; 0.4x wrote exact counts with thousands separators.
 */
export function tokensUsage(status: string): Usage | undefined {
  const m = TOKENS.exec(status);
  if (m === null) return undefined;
  const sent = tokenCount(m[1]!);
  const write = m[2] === undefined ? 0 : tokenCount(m[2]);
  const hit = m[3] === undefined ? 0 : tokenCount(m[3]);
  return usage({
    input: Math.max(0, sent - write - hit),
    output: tokenCount(m[4]!),
    cacheCreation: write,
    cacheRead: hit,
  });
}

const SESSION_COST = /Cost: \$([\d.,]+) (?:message|request), \$([\d.,]+) session\./;

/**
 * The session's running cost aider reports after a reply (`Cost: $0.02 message, $0.04 session.`,
 * at the end of the `Tokens:` line or on a line of its own): what it spent since it started, in
 * USD, as it priced it.
 */
export function sessionCost(status: string): number | undefined {
  const m = SESSION_COST.exec(status);
  if (m === null) return undefined;
  const usd = Number(m[2]!.replaceAll(',', ''));
  return Number.isFinite(usd) ? usd : undefined;
}

function tokenCount(text: string): number {
  const suffix = text.at(-1)!.toLowerCase();
  const scale = suffix === 'k' ? 1_000 : suffix === 'm' ? 1_000_000 : 1;
  const digits = (scale === 1 ? text : text.slice(0, -1)).replaceAll(',', '');
  const value = Number(digits);
  return Number.isFinite(value) ? Math.round(value * scale) : 0;
}

const MODEL = /^(Main model|Models?|Editor model): (.+?) with ([\w-]+) edit format/;

/** `Main model: <name> with <format> edit format…` (`get_announcements`); `Model:` when there is no weak model. */
export function modelLine(
  status: string,
): { readonly role: 'main' | 'editor'; readonly model: string } | undefined {
  const m = MODEL.exec(status);
  if (m === null) return undefined;
  return { role: m[1] === 'Editor model' ? 'editor' : 'main', model: m[2]! };
}

/**
 * The provider of a litellm model name: its prefix (`openrouter/…`, `gemini/…`, `vertex_ai/…`),
 * else the family the bare name belongs to.
 */
export function providerOf(model: string): string {
  const slash = model.indexOf('/');
  if (slash > 0) return model.slice(0, slash);
  if (/^claude/i.test(model)) return 'anthropic';
  if (/^(gpt|o\d|chatgpt|codex)/i.test(model)) return 'openai';
  if (/^gemini/i.test(model)) return 'google';
  if (/^deepseek/i.test(model)) return 'deepseek';
  return 'unknown';
}

// aider/reasoning_tags.py: the reasoning a model streams is kept in the reply between these tags.
const REASONING =
  /<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>[\s\S]*?<\/thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>/g;

/** The reply without the reasoning aider logs inside it (reasoning is left out, as for Codex and Gemini). */
export function replyText(lines: readonly string[]): string {
  const text = lines.join('\n');
  return (text.includes('<thinking-content-') ? text.replace(REASONING, '') : text).trim();
}
