import type { VisibleRow } from './session-tree.js';

/** What a key press on the session list asks for (the WAI-ARIA tree view pattern). */
export type ListKeyAction =
  | { readonly kind: 'move'; readonly id: string }
  | { readonly kind: 'expand'; readonly id: string }
  | { readonly kind: 'collapse'; readonly id: string }
  | { readonly kind: 'open'; readonly id: string }
  | { readonly kind: 'none' };

const NONE: ListKeyAction = { kind: 'none' };

/**
 * The action of `key` with `activeId` the keyboard cursor. Up/Down move one row, Home/End to the
 * ends, Right expands a collapsed parent or enters its first child, Left collapses an expanded
 * parent or goes to the parent, Enter opens. With no (or a vanished) active row, any move key
 * starts at the first row.
 */
export function listKeyAction(
  rows: readonly VisibleRow[],
  activeId: string | null,
  key: string,
): ListKeyAction {
  if (rows.length === 0) return NONE;
  const index = activeId === null ? -1 : rows.findIndex((row) => row.entry.id === activeId);
  const at = (i: number): ListKeyAction => ({ kind: 'move', id: rows[i]!.entry.id });
  if (index === -1) {
    if (key === 'End') return at(rows.length - 1);
    return ['ArrowDown', 'ArrowUp', 'Home', 'ArrowLeft', 'ArrowRight'].includes(key) ? at(0) : NONE;
  }
  const row = rows[index]!;
  switch (key) {
    case 'ArrowDown':
      return index + 1 < rows.length ? at(index + 1) : NONE;
    case 'ArrowUp':
      return index > 0 ? at(index - 1) : NONE;
    case 'Home':
      return at(0);
    case 'End':
      return at(rows.length - 1);
    case 'ArrowRight':
      if (row.childCount === 0) return NONE;
      return row.expanded ? at(index + 1) : { kind: 'expand', id: row.entry.id };
    case 'ArrowLeft':
      if (row.expanded) return { kind: 'collapse', id: row.entry.id };
      return row.parentId !== null ? { kind: 'move', id: row.parentId } : NONE;
    case 'Enter':
      return { kind: 'open', id: row.entry.id };
    default:
      return NONE;
  }
}
