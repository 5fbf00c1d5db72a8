import { defined } from '@strand/session';
import type { ListSessionsRequest, ListSessionsResponse, SessionInfo } from '@agentclientprotocol/sdk';
import { lastActivityOf, type SessionListRow } from '@strand/protocol';
import { titleOf } from '@strand/mcp';

/** Rows per `session/list` answer: one host page (the host's default page size). */
export const ACP_LIST_PAGE = 200;

/** The host `session.list` params for one ACP `session/list` request: one page, the editor's cursor. */
export function hostListParams(request: ListSessionsRequest): {
  limit: number;
  cwd?: string;
  cursor?: string;
} {
  return {
    limit: ACP_LIST_PAGE,
    ...(typeof request.cwd === 'string' ? { cwd: request.cwd } : {}),
    ...(typeof request.cursor === 'string' ? { cursor: request.cursor } : {}),
  };
}

/**
 * One host page as ACP's answer. The host's cursor passes through unchanged (opaque to the editor,
 * refused by the host when altered). ACP requires an absolute `cwd`: a session that recorded none
 * (or a relative one) is listed under the folder `strand acp` runs in, and its title says so.
 */
export function acpSessionPage(
  page: { readonly sessions: readonly SessionListRow[]; readonly nextCursor?: string },
  ownFolder: string,
): ListSessionsResponse {
  return {
    sessions: page.sessions.map((row) => sessionInfo(row, ownFolder)),
    ...defined({ nextCursor: page.nextCursor }),
  };
}

function sessionInfo(row: SessionListRow, ownFolder: string): SessionInfo {
  const recorded = row.header.cwd;
  const hasFolder = recorded !== undefined && recorded.startsWith('/');
  const title = titleOf(row);
  const named = typeof title === 'string' ? title : `Session ${row.id}`;
  return {
    sessionId: row.id,
    cwd: hasFolder ? recorded : ownFolder,
    title: hasFolder ? named : `${named} (no folder recorded)`,
    updatedAt: new Date(lastActivityOf(row)).toISOString(),
  };
}
