import type { SessionHeader, SessionId } from '@strand/session';
import type { ShareGrant } from './grant-store.js';

/** A header, when the session exists and can be read; undefined otherwise (never throws). */
export type HeaderOf = (id: string) => Promise<Pick<SessionHeader, 'origin' | 'parentSession'> | undefined>;

/** Deeper than any real subagent tree; a longer chain is treated as not covered (corrupt data). */
const MAX_DEPTH = 64;

/**
 * Whether `id` is a session the grant lets its holder read: the shared session itself, or, when
 * the grant includes subagents, a session whose chain of subagent parents reaches it. A session
 * that does not exist or cannot be read is not covered, so a share connection cannot tell it
 * from one that exists outside its grant.
 */
export async function grantCovers(grant: ShareGrant, id: string, headerOf: HeaderOf): Promise<boolean> {
  if (id === grant.sessionId) return true;
  if (!grant.descendants) return false;
  const seen = new Set<string>([id]);
  let header = await headerOf(id);
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (header?.origin !== 'subagent' || header.parentSession === undefined) return false;
    const parent: SessionId = header.parentSession;
    if (parent === grant.sessionId) return true;
    if (seen.has(parent)) return false;
    seen.add(parent);
    header = await headerOf(parent);
  }
  return false;
}
