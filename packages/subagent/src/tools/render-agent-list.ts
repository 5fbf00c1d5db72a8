import type { SubagentDescendantEntry, SubagentListEntry } from '../listing/types.js';

export type AgentListScope = 'children' | 'descendants';

const DIAGNOSTIC_TEXT: Readonly<
  Record<Extract<SubagentListEntry, { kind: 'diagnostic' }>['reason'], string>
> = {
  corrupt: 'its subagent descriptor is missing or unreadable; it cannot be continued',
  unsupported: 'it was written by a newer version and cannot be read here',
  unavailable: 'its log could not be read just now; list again to retry',
};

// Ids and labels are quoted as JSON strings: a label with a newline or quote cannot break a line.
const quote = (text: string): string => JSON.stringify(text);

function describe(row: SubagentListEntry): string {
  if (row.kind === 'diagnostic')
    return `id=${quote(row.id)} diagnostic=${row.reason} (${DIAGNOSTIC_TEXT[row.reason]})`;
  const label = row.label === undefined ? '' : ` label=${quote(row.label)}`;
  return `id=${quote(row.id)} mode=${row.mode}${label} status=${row.activity} hasChildren=${String(row.hasChildren)}`;
}

function isPlaced(row: SubagentListEntry | SubagentDescendantEntry): row is SubagentDescendantEntry {
  return 'depth' in row;
}

/**
 * The model-facing text of a listing: stable (tests pin it byte for byte), one line per row in
 * listing order. Descendant rows are indented by depth and name their parent.
 */
export function renderAgentList(
  rows: readonly (SubagentListEntry | SubagentDescendantEntry)[],
  scope: AgentListScope,
): string {
  const noun = scope === 'children' ? 'child agent' : 'descendant agent';
  if (rows.length === 0) return `No ${noun}s.`;
  const lines = [`${rows.length} ${noun}${rows.length === 1 ? '' : 's'}:`];
  for (const row of rows) {
    if (isPlaced(row)) {
      lines.push(
        `${'  '.repeat(row.depth - 1)}- depth=${row.depth} parent=${quote(row.parentId)} ${describe(row)}`,
      );
    } else {
      lines.push(`- ${describe(row)}`);
    }
  }
  return lines.join('\n');
}
