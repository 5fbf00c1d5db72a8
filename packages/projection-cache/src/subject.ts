import type { SessionHeader } from '@strand/session';

/**
 * Whose rows: the header plus the persistence `incarnation`.
 *
 * Deliberate deviation from the originally specified `cachedSnapshot(header, …)`: a header alone cannot tell a
 * session from one deleted and created again under the same id, and the incarnation lives beside
 * the header in persistence, never in it. Every caller that can name a cold session already holds
 * both — a `PersistedSessionSummary` from `list()` *is* a `CacheSubject` — and a live `Session`
 * has `header` and `incarnation`.
 */
export interface CacheSubject {
  readonly header: SessionHeader;
  readonly incarnation: string;
}
