import type { RpcErrorObject } from '@strand/protocol';
import { SessionId } from '@strand/session';
import { wireError } from '../errors.js';
import type { HostServices } from '../services.js';

/**
 * The `id` param of a session method, checked at the edge: a valid `SessionId` that this host's
 * storage can hold. An id the backend could never store (the file backend's name limit) names
 * no session that can exist, so it is the caller's malformed id — `SESSION_ID_INVALID` — and not
 * a storage failure deep in a read. Undefined when the params carry no id or it is fine.
 */
export function sessionIdParamError(services: HostServices, params: unknown): RpcErrorObject | undefined {
  if (typeof params !== 'object' || params === null || !('id' in params)) return undefined;
  const raw = (params as { readonly id: unknown }).id;
  if (typeof raw !== 'string') return undefined;
  let id: SessionId;
  try {
    id = SessionId(raw);
  } catch (error) {
    return wireError('SESSION_ID_INVALID', (error as Error).message);
  }
  const reason = services.persistence.unstorableIdReason?.(id);
  return reason === undefined ? undefined : wireError('SESSION_ID_INVALID', reason);
}
