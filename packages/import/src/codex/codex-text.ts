/**
 * Text conventions of Codex rollouts: the context Codex injects as "user" messages, and the IDE
 * preamble around a typed request.
 */

// Injected before (or into) a turn: environment facts and instruction files, not prompts; and
// what Codex itself tells the model as a user message (0.16x): a subagent's completion, the
// notice that the person interrupted the previous turn.
const CONTEXT_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '# AGENTS.md instructions',
  '<INSTRUCTIONS>',
  '<subagent_notification>',
  '<turn_aborted>',
];

export function isContextMessage(text: string): boolean {
  const head = text.trimStart();
  return CONTEXT_PREFIXES.some((p) => head.startsWith(p));
}

const IDE_REQUEST = '## My request for Codex:';

/** The part of a prompt a person typed: the IDE extension wraps it in open-file context. */
export function typedRequest(text: string): string {
  const at = text.indexOf(IDE_REQUEST);
  return at < 0 ? text : text.slice(at + IDE_REQUEST.length);
}

/** The synthetic output a forked child's own spawn call gets: the end of the replayed history. */
export const SPAWNED_AGENT_MARKER = 'You are the newly spawned agent';
