import type { ProjectionLookup } from '@strand/client';
import { isRecord } from '@strand/session';
import type { SessionListRow } from '@strand/protocol';
import type { ListEntry } from './session-tree.js';
import { subagentParent } from '../shared/subagent-parent.js';

/**
 * What the list sorts, nests and filters by, read from a `session.list` row and the store's
 * `listMetadata` (the store, not the row's hint: a follow may have brought a newer value). A
 * child is a row whose header says `origin: 'subagent'`; its parent is `header.parentSession`.
 */
export function listEntry(row: SessionListRow, listMetadata: ProjectionLookup): ListEntry {
  const { header } = row;
  return {
    id: row.id,
    parentId: subagentParent(header),
    createdAt: header.createdAt,
    lastPromptAt: lastPromptAt(listMetadata),
    cwd: header.cwd ?? null,
    harness: header.source?.harness ?? null,
  };
}

/** `undefined` while the hint is unknown (or not the shape the unit writes), else its value. */
function lastPromptAt(lookup: ProjectionLookup): number | null | undefined {
  if (!lookup.known || !isRecord(lookup.value)) return undefined;
  const value = lookup.value.lastPromptAt;
  return typeof value === 'number' ? value : value === null ? null : undefined;
}
