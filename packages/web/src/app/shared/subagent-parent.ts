import type { SessionListRow } from '@strand/protocol';

/** A subagent child's parent: `header.parentSession` when `origin` is `'subagent'`, else `null`. */
export function subagentParent(header: SessionListRow['header']): string | null {
  return header.origin === 'subagent' && header.parentSession !== undefined ? header.parentSession : null;
}
