import { METHODS, type MethodName, type RpcErrorObject } from '@strand/protocol';
import { wireError } from '../errors.js';
import { grantStatus } from './grant-status.js';
import type { ShareGrant } from './grant-store.js';
import { grantCovers, type HeaderOf } from './share-scope.js';

/** What one connection may do: everything (the host token, or a host without one), or one grant's reads. */
export type ConnectionAccess =
  | { readonly kind: 'full' }
  | { readonly kind: 'share'; readonly grant: ShareGrant; readonly headerOf: HeaderOf };

export const FULL_ACCESS: ConnectionAccess = { kind: 'full' };

/**
 * The one answer a share connection gets for a session outside its grant, existing or not: the
 * same code, message and data a missing session gets, so nothing tells the two apart.
 */
export function notFoundForShare(id: string): RpcErrorObject {
  return wireError('SESSION_QUERY_NOT_FOUND', `session ${id} was not found`, { sessionId: id });
}

const readOnly = (why: string): RpcErrorObject =>
  wireError('HOST_SHARE_READ_ONLY', `this connection holds a read-only share link: ${why}`);

/**
 * Whether a share connection may run `method` with `params`, from the method's declared share
 * access (`METHODS[m].share`): undefined to run it (a `filtered` method still narrows its answer),
 * else the refusal. Checked before the handler runs, so a refused call reads and writes nothing.
 */
export async function shareRefusal(
  access: Extract<ConnectionAccess, { kind: 'share' }>,
  method: MethodName,
  params: unknown,
  now: number,
): Promise<RpcErrorObject | undefined> {
  const { grant } = access;
  // A connection outlives its grant's expiry: from then on it is told so on every request.
  if (grantStatus(grant, now) === 'expired')
    return wireError('HOST_SHARE_EXPIRED', 'the share link has expired');
  const share = METHODS[method].share;
  switch (share) {
    case 'open':
    case 'filtered':
      return undefined;
    case 'refused':
      return readOnly(`${method} is not allowed`);
    case 'session':
    case 'subtree': {
      const id = (params as { readonly id: string }).id;
      if (!(await grantCovers(grant, id, access.headerOf))) return notFoundForShare(id);
      if (share === 'subtree' && !grant.descendants) return readOnly('the link does not include subagents');
      if (method === 'session.follow' && (params as { readonly interactive?: boolean }).interactive === true)
        return readOnly('a follow may not be interactive');
      return undefined;
    }
    default: {
      const exhaustive: never = share;
      throw new Error(`unhandled share access ${String(exhaustive)}`);
    }
  }
}
