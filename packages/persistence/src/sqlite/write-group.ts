import type Database from 'better-sqlite3';
import type { SessionEvent, SessionId } from '@strand/session';
import type { AppendOutcome, QueuedAppend } from './append-groups.js';
import type { PendingSession, WriteResult } from './write-batch.js';

/** What one committed group held: the figures the `onGroupCommitted` hook reports. */
export interface GroupCommitted {
  readonly appends: number;
  readonly sessions: number;
}

export interface GroupWriter {
  readonly db: Database.Database;
  /** The whole group's transaction: `immediate` takes the write lock once for all of it. */
  readonly groupTx: Database.Transaction<(body: () => void) => void>;
  /** `writeBatch` as a transaction function: called inside `groupTx` it runs in a SAVEPOINT. */
  readonly writeTx: Database.Transaction<
    (id: SessionId, events: readonly SessionEvent[], pending?: PendingSession) => WriteResult
  >;
  /** Sessions created in this process and not written yet; the group writes (and forgets) them. */
  readonly pending: Map<SessionId, PendingSession>;
  readonly toError: (error: unknown, id: SessionId) => Error;
  readonly onCommitted?: ((group: GroupCommitted) => void) | undefined;
}

/**
 * Writes a group of appends (any sessions, each session's in the order issued) in one IMMEDIATE
 * transaction, so one commit — one WAL sync under `synchronous=FULL` — makes all of them durable.
 * Each append runs in its own SAVEPOINT: a failure (a seq conflict, a constraint, a session
 * deleted meanwhile) rolls back that append alone, which fails with its own error while the rest
 * commit — exactly what the appends would have done one transaction each, in this order. A
 * failure that ends the transaction itself (SQLite rolls it back on SQLITE_FULL or an I/O error,
 * or the COMMIT fails) fails every append not already failed on its own: none of them is durable.
 */
export function writeGroup(w: GroupWriter, group: readonly QueuedAppend[]): AppendOutcome[] {
  const [only] = group;
  if (group.length === 1 && only !== undefined) return [writeAlone(w, only)];
  const outcomes: (AppendOutcome | undefined)[] = new Array<AppendOutcome | undefined>(group.length);
  const created = new Set<SessionId>();
  try {
    w.groupTx.immediate(() => {
      group.forEach(({ id, events }, i) => {
        // A session created lazily is written by its first append; later ones of this group find its row.
        const pending = created.has(id) ? undefined : w.pending.get(id);
        try {
          outcomes[i] = { kind: 'written', revision: w.writeTx(id, events, pending).revision };
          if (pending !== undefined) created.add(id);
        } catch (error) {
          // SQLite ended the transaction: nothing written so far in this group survives.
          if (!w.db.inTransaction) throw error;
          outcomes[i] = { kind: 'failed', error: w.toError(error, id) };
        }
      });
    });
  } catch (error) {
    return group.map(({ id }, i) => {
      const own = outcomes[i];
      return own?.kind === 'failed' ? own : { kind: 'failed', error: w.toError(error, id) };
    });
  }
  for (const id of created) w.pending.delete(id);
  w.onCommitted?.({ appends: group.length, sessions: new Set(group.map(({ id }) => id)).size });
  return outcomes.map((outcome) => outcome ?? { kind: 'failed', error: new Error('append left unwritten') });
}

/**
 * A group of one is that append's own transaction: the same outcome as the general path without
 * its SAVEPOINT, which a lone writer (the common case) would pay on every append for nothing.
 */
function writeAlone(w: GroupWriter, { id, events }: QueuedAppend): AppendOutcome {
  const pending = w.pending.get(id);
  let revision: string;
  try {
    revision = w.writeTx.immediate(id, events, pending).revision;
  } catch (error) {
    return { kind: 'failed', error: w.toError(error, id) };
  }
  if (pending !== undefined) w.pending.delete(id);
  w.onCommitted?.({ appends: 1, sessions: 1 });
  return { kind: 'written', revision };
}
