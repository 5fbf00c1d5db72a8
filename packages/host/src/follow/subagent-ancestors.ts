import type { SessionHeader, SessionId } from '@strand/session';

/**
 * The sessions whose subagent listings a change of `child` (attached or detached here) can
 * change: its parent, and further up while each session on the way is a subagent child whose
 * header is at hand (`liveHeader`: attached here; a cold ancestor's header would cost a read, so
 * the walk stops there). Nearest first; a cycle of headers (corrupt data) ends the walk.
 */
export function subagentAncestors(
  child: SessionHeader,
  liveHeader: (id: SessionId) => SessionHeader | undefined,
): SessionId[] {
  const ancestors: SessionId[] = [];
  const seen = new Set<SessionId>([child.id]);
  let header: SessionHeader | undefined = child;
  while (header?.origin === 'subagent' && header.parentSession !== undefined) {
    const parentId: SessionId = header.parentSession;
    if (seen.has(parentId)) break;
    seen.add(parentId);
    ancestors.push(parentId);
    header = liveHeader(parentId);
  }
  return ancestors;
}
