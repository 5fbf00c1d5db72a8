import type { Session, SessionId, SessionStore } from '@strand/session';
import { checkAborted } from './error-mapping.js';

/**
 * The one "live wins after every await" rule of a resolution. A resolution chose its source by
 * what the live store held (`expected`: that session, or `undefined` for a cold read); every
 * await after that choice may have let the store change. So after the await's test seam
 * (`hook`) the caller's signal is checked and the store asked again: `'current'` when it still
 * holds `expected`, `'retry'` when a session attached (the live one wins over a cold cut) or the
 * chosen live one detached or was replaced (never publish a reference nobody holds).
 */
export async function recheckLive(
  store: SessionStore,
  id: SessionId,
  expected: Session | undefined,
  hook: ((id: SessionId) => void | Promise<void>) | undefined,
  signal: AbortSignal | undefined,
): Promise<'current' | 'retry'> {
  await hook?.(id);
  checkAborted(signal, id);
  return store.get(id) === expected ? 'current' : 'retry';
}
