import { defined } from '@strand/session';
import type { SessionPersistence } from '@strand/persistence';
import type { SessionHeader, SessionId, SessionStore } from '@strand/session';
import { checkAborted, toQueryError } from './error-mapping.js';

/**
 * One row of the live-preferred corpus: logical header facts only (`isSeeded`, never the integer
 * cut) and no projection values. For an id that is both attached and persisted, the live header
 * wins (the listing contract: no consistency check between the two).
 */
export interface CorpusRow {
  readonly header: SessionHeader;
  /** Attached in this process. */
  readonly live: boolean;
  /** Stored in persistence. */
  readonly persisted: boolean;
  /** The persistence incarnation (from storage, or the live session's). */
  readonly incarnation: string | undefined;
  /** The persisted revision, when stored. */
  readonly revision: string | undefined;
  /** Bytes in storage, when stored. */
  readonly storedBytes: number | undefined;
}

/** Lists the corpus without materializing any log: persisted headers merged with attached sessions. */
export async function listCorpus(
  persistence: SessionPersistence,
  store: SessionStore,
  signal?: AbortSignal,
): Promise<CorpusRow[]> {
  checkAborted(signal, '*');
  let persisted;
  try {
    persisted = await persistence.list(defined({ signal }));
  } catch (error) {
    throw toQueryError(error, '*');
  }
  checkAborted(signal, '*');
  const rows = new Map<SessionId, CorpusRow>();
  for (const summary of persisted) {
    rows.set(summary.header.id, {
      header: summary.header,
      live: false,
      persisted: true,
      incarnation: summary.incarnation,
      revision: summary.revision,
      storedBytes: summary.storedBytes,
    });
  }
  // Read the live records after the persisted list: a session attached meanwhile still wins.
  for (const session of store.list()) {
    const stored = rows.get(session.id);
    rows.set(session.id, {
      header: session.header,
      live: true,
      persisted: stored !== undefined,
      incarnation: session.incarnation ?? stored?.incarnation,
      revision: stored?.revision,
      storedBytes: stored?.storedBytes,
    });
  }
  return [...rows.values()];
}
