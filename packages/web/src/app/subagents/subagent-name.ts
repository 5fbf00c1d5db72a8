import type { ProjectionLookup } from '@strand/client';

/** What a child with neither a label nor a title is called, in the list and the panel alike. */
export const NO_LABEL = '(no label)';

/**
 * A subagent child's name, the same in the session list and the subagent panel: its label (the
 * descriptor's, what the parent called it), else its title when it has one, else undefined (the
 * caller says `NO_LABEL`). A child is rarely titled — the title unit follows human prompts — so
 * the title alone left the list saying "(untitled)" for children the panel named.
 */
export function subagentName(label: string | null | undefined, title: ProjectionLookup): string | undefined {
  if (typeof label === 'string' && label !== '') return label;
  return title.known && typeof title.value === 'string' ? title.value : undefined;
}
