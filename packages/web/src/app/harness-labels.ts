import type { SearchHarness } from '@strand/protocol';

/*
 * The harnesses the wire narrows by (`session.search` and `usage.summary` take one of these), with
 * the names people know them by. A record over the wire's type, so a harness added there fails to
 * compile here until it has a label (types only: the bundle does not load the protocol's schemas).
 */
export const HARNESS_LABELS: Readonly<Record<SearchHarness, string>> = {
  strand: 'Strand',
  'claude-code': 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  qwen: 'Qwen Code',
};

export const HARNESSES = Object.keys(HARNESS_LABELS) as SearchHarness[];

/** Whether `value` is a harness the wire accepts (a hand-edited address may name any other). */
export function isSearchHarness(value: string): value is SearchHarness {
  return Object.hasOwn(HARNESS_LABELS, value);
}
