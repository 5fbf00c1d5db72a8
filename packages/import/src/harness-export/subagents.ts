import type { ExportDocument } from '@strand/export';

/**
 * The exported session's subagent tree, as the writers take it: its children at the same durable
 * reading (each its whole log), and the ids of their own descendants, which no target carries.
 */
export interface SubagentExports {
  readonly children: readonly ExportDocument[];
  /**
   * Subagents no target writes, named as left out: those below the children (a child's own) and
   * any child the listing could not read.
   */
  readonly others: readonly string[];
}

export const NO_SUBAGENTS: SubagentExports = { children: [], others: [] };

/**
 * The left-out line of a target with no child format (Codex, Gemini CLI): every subagent named,
 * none written. Empty for a session without subagents.
 */
export function subagentsLeftOut(subagents: SubagentExports, harness: string): string[] {
  const ids = [...subagents.children.map((child) => child.header.id), ...subagents.others];
  return ids.length === 0
    ? []
    : [`${ids.length} × subagent not carried (${harness} has no child format): ${ids.join(', ')}`];
}

/**
 * The left-out line of the subagents a target with a child format still does not write: a
 * child's own subagents (the sidechains written are the session's direct children) and unreadable ones.
 */
export function othersLeftOut(subagents: SubagentExports): string[] {
  const ids = subagents.others;
  return ids.length === 0
    ? []
    : [`${ids.length} × subagent not carried (a subagent's own, or unreadable): ${ids.join(', ')}`];
}
