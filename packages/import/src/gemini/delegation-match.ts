/**
 * Which delegation call of the person's chat ran which nested chat. gemini-cli builds a nested
 * agent's first prompt from its query template with the call's inputs put in verbatim
 * (`templateString`: `<question>\n${question}\n</question>`, `<objective>…`, `${request}`), so a
 * call belongs to a chat whose opening prompt holds every string input of the call. Time cannot
 * decide alone: a call the model made without text first is recorded when the tool completes
 * (`recordCompletedToolCalls`), after the nested chat started, and otherwise when the model asks,
 * before. So time only breaks ties between calls whose inputs all match. Pure.
 *
 * Invariants: each call runs at most one chat; a chat's call holds nothing its prompt lacks;
 * the result does not depend on the order of `chats` or `calls`.
 */

/** A delegation call as the person's chat recorded it. */
export interface DelegationCall {
  /** The call id; calls of copies of one chat with the same id are one call. */
  readonly id?: string;
  readonly at: number;
  readonly agent?: string;
  /** The call's string inputs (its arguments but the agent name); absent or empty: nothing to compare. */
  readonly inputs?: readonly string[];
}

/** A nested chat to be matched: a key of the caller's choice, its start, its opening prompt. */
export interface NestedChat {
  readonly key: string;
  readonly start: number;
  /** The text of the user messages before its first reply; undefined when it has none. */
  readonly prompt: string | undefined;
}

/**
 * The call that ran each chat, by chat key. Chats are served in start order, each taking, among the
 * calls not taken yet whose inputs its prompt holds, the nearest in time (then the earlier, then
 * by id): so with calls all written after their chats started, or all before, the k-th chat of
 * one question gets the k-th call of it.
 */
export function matchDelegations(
  chats: readonly NestedChat[],
  calls: readonly DelegationCall[],
): Map<string, DelegationCall> {
  const free = uniqueCalls(calls);
  const out = new Map<string, DelegationCall>();
  const ordered = [...chats].sort((a, b) => order(a.start, b.start) || order(a.key, b.key));
  for (const chat of ordered) {
    const best = free
      .filter((call) => holds(chat.prompt, call))
      .sort(
        (a, b) =>
          order(distance(a.at, chat.start), distance(b.at, chat.start)) ||
          order(a.at, b.at) ||
          order(callKey(a), callKey(b)),
      )[0];
    if (best === undefined) continue;
    out.set(chat.key, best);
    free.splice(free.indexOf(best), 1);
  }
  return out;
}

/** gemini-cli puts inputs in as they are; whitespace is normalised against line-ending changes. */
export function normaliseText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Content can only refute: a call with inputs and a chat with a known prompt must agree. */
function holds(prompt: string | undefined, call: DelegationCall): boolean {
  const inputs = (call.inputs ?? []).map(normaliseText).filter((input) => input.length > 0);
  if (inputs.length === 0 || prompt === undefined) return true;
  const text = normaliseText(prompt);
  return inputs.every((input) => text.includes(input));
}

// Copies of the person's chat (a whole-JSON file and its JSONL migration) record the same calls.
function uniqueCalls(calls: readonly DelegationCall[]): DelegationCall[] {
  const byKey = new Map<string, DelegationCall>();
  for (const call of [...calls].sort((a, b) => order(a.at, b.at) || order(callKey(a), callKey(b))))
    if (!byKey.has(callKey(call))) byKey.set(callKey(call), call);
  return [...byKey.values()];
}

function callKey(call: DelegationCall): string {
  return call.id ?? JSON.stringify([call.at, call.agent ?? null, call.inputs ?? []]);
}

// A chat without a start time (infinite) is equally far from every call.
function distance(at: number, start: number): number {
  return Number.isFinite(start) ? Math.abs(at - start) : Number.POSITIVE_INFINITY;
}

function order<T extends number | string>(a: T, b: T): number {
  return a === b ? 0 : a < b ? -1 : 1;
}
