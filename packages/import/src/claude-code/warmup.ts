import { isRecord, str, type JsonRecord } from '../source/json-record.js';

// Claude Code 2.0 starts throwaway subagents with this prompt to warm the prompt cache.
const WARMUP_PROMPT = 'Warmup';

/**
 * Tells a Claude Code warm-up agent from a subagent someone ran. Claude Code 2.0 starts
 * throwaway subagents to warm the prompt cache; their files come in two shapes: the prompt line
 * `Warmup` and a canned reply, or the canned reply alone ("I'm ready to help…": the prompt line
 * was never written). The second is told by what it is, not by its words: a subagent file
 * (every conversation record `isSidechain: true`) with no prompt — no `user` line, none recovered
 * from a parent's `Task`/`Agent` call, nothing the mapping wrote as a message to the agent — and
 * exactly one response (one `message.id`, however many streamed lines) that calls no tool.
 *
 * A file that grows past that shape stops being a warm-up, so a prefix maps to nothing or to a
 * prefix of the child (the prefix law holds).
 */
export class WarmupWitness {
  #userLines = 0;
  #sidechainOnly = true;
  #calledTool = false;
  readonly #responses = new Set<string>();

  /** Notes one conversation record (`user`, `assistant`, `system`) of the subagent file. */
  see(type: string, record: JsonRecord): void {
    if (record.isSidechain !== true) this.#sidechainOnly = false;
    if (type === 'user') this.#userLines++;
    if (type !== 'assistant') return;
    const message = isRecord(record.message) ? record.message : {};
    this.#responses.add(str(message.id) ?? str(record.uuid) ?? '');
    if (
      Array.isArray(message.content) &&
      message.content.some((b) => isRecord(b) && (b.type === 'tool_use' || b.type === 'server_tool_use'))
    )
      this.#calledTool = true;
  }

  /**
   * Why the file is a warm-up (a report's reason), or undefined when it is a subagent to show.
   * `firstPrompt`: the prompt the mapping read or recovered; `wroteMessages`: whether it wrote any
   * `user/message` (a note or an attached file counts: a warm-up has none).
   */
  reason(firstPrompt: string | undefined, wroteMessages: boolean): string | undefined {
    if (firstPrompt?.trim() === WARMUP_PROMPT)
      return `a Claude Code warmup agent (its only prompt is "${WARMUP_PROMPT}"), not a subagent anyone ran`;
    if (
      this.#sidechainOnly &&
      this.#userLines === 0 &&
      firstPrompt === undefined &&
      !wroteMessages &&
      this.#responses.size === 1 &&
      !this.#calledTool
    )
      return 'a Claude Code warmup agent (no prompt, one reply calling no tool), not a subagent anyone ran';
    return undefined;
  }
}
