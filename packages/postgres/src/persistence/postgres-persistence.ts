import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  checkInherited,
  revisionToken,
  storedSummary,
  withRepairsWritten,
  isPersistenceError,
  throwIfAborted,
  type Attachment,
  type CreateSessionInput,
  type ListChunksOptions,
  type PersistedSessionSummary,
  type ReadOptions,
  type ScanOptions,
  type SessionPersistence,
  type StoredLog,
  type StoredSuffix,
} from '@strand/persistence';
import { parseSessionHeader, type SessionEvent, type SessionId, type SessionSeq } from '@strand/session';
import { AppendQueues, type WriteResult } from './append-queue.js';
import {
  attachmentNotFound,
  closed,
  exists,
  notFound,
  seqConflict,
  sqlState,
  toPersistenceError,
} from './persistence-errors.js';
import { readStoredLog, readStoredSuffix } from './read-log.js';
import * as sql from './statements.js';
import { AppendRounds } from './append-rounds.js';
import { writeGroup } from './write-group.js';
import type { OneRowWrite, PendingSession } from './write-one.js';
import { sendRound } from './write-round.js';

/** How often a repairing `load` re-reads after losing a race with another writer. */
const LOAD_ATTEMPTS = 3;

/**
 * The PostgreSQL backend of `SessionPersistence`, for several hosts sharing one corpus. Every
 * write is one transaction whose guard on `next_seq` lets exactly one of two racing writers win
 * (the loser gets PERSISTENCE_SEQ_CONFLICT and wrote nothing), which announces itself on
 * `APPENDS_CHANNEL` when it commits, and resolves only after COMMIT — durable as far as the
 * server's `synchronous_commit` makes it (`on` by default). Appends to one session from this
 * process are ordered and coalesced (`AppendQueues`), and the writes of different sessions
 * pending at one moment share one statement (`AppendRounds`); reads are single statements, so
 * each is one snapshot.
 */
export class PostgresPersistence implements SessionPersistence {
  readonly kind = 'postgres';
  readonly #pool: pg.Pool;
  readonly #pending = new Map<SessionId, PendingSession>();
  readonly #appends: AppendQueues;
  /** Common writes of different sessions pending at one moment: one statement, one round trip. */
  readonly #rounds: AppendRounds<OneRowWrite, WriteResult>;
  #closed = false;

  /** Use `openPostgresPersistence`, which also checks and creates the schema. */
  constructor(pool: pg.Pool) {
    this.#pool = pool;
    this.#rounds = new AppendRounds((writes) => sendRound(this.#pool, writes));
    this.#appends = new AppendQueues(async (id, events, incarnation) => {
      const pending = this.#pending.get(id);
      let written: WriteResult;
      try {
        written = await writeGroup(this.#pool, this.#rounds, id, events, pending, incarnation);
      } catch (error) {
        // Another host stored this id first: the pending creation can never succeed. (After any
        // other failure it stays pending, so a later append may still create the session.)
        if (pending !== undefined && isPersistenceError(error, 'PERSISTENCE_EXISTS'))
          this.#forget(id, pending);
        throw error;
      }
      // Creation is complete once the first write committed: later writes just advance the row.
      if (pending !== undefined) this.#forget(id, pending);
      return written;
    });
  }

  create(input: CreateSessionInput): Promise<{ readonly incarnation: string }> {
    return this.#run('create', input.header.id, async () => {
      const header = parseSessionHeader(input.header);
      const inherited = input.inheritedEvents ?? [];
      checkInherited(header, inherited);
      if (this.#pending.has(header.id)) throw exists(header.id);
      if ((await this.#pool.query(sql.revisionOf(header.id))).rows.length > 0) throw exists(header.id);
      if (this.#pending.has(header.id)) throw exists(header.id);
      const pending: PendingSession = {
        incarnation: randomUUID(),
        headerJson: JSON.stringify(header),
        inheritedEventCount: inherited.length,
        attachments: new Map(),
      };
      this.#pending.set(header.id, pending);
      if (inherited.length === 0 && input.materialize === true) {
        // The session row alone, written here: the append queue carries events only. Nobody can
        // append before `create` returns the incarnation, so nothing races this write.
        try {
          await writeGroup(this.#pool, this.#rounds, header.id, [], pending, undefined);
        } finally {
          this.#forget(header.id, pending);
        }
        return { incarnation: pending.incarnation };
      }
      // A seeded prefix is written at once; an ordinary session waits for its first append.
      if (inherited.length > 0) {
        try {
          await this.#appends.enqueue(header.id, inherited);
        } catch (error) {
          // Nothing was stored: the seeded session does not exist, not even as pending.
          this.#forget(header.id, pending);
          throw error;
        }
      }
      return { incarnation: pending.incarnation };
    });
  }

  /**
   * Not `async` on purpose: the append is queued synchronously, so two appends issued one after
   * the other are queued — and written — in that order.
   */
  append(id: SessionId, events: readonly SessionEvent[]): Promise<{ readonly revision: string }> {
    if (this.#closed) return Promise.reject(closed('append', id));
    if (events.length === 0) return this.#run('append', id, () => this.#currentRevision(id));
    const first = events[0]!.seq;
    for (let i = 1; i < events.length; i++) {
      if (events[i]!.seq !== first + i) {
        return Promise.reject(seqConflict(id, first + i, events[i]!.seq, ` (batch index ${i})`));
      }
    }
    return this.#appends.enqueue(id, events).then(({ revision }) => ({ revision }));
  }

  list(options?: ReadOptions): Promise<PersistedSessionSummary[]> {
    return this.#run('list', undefined, async () => {
      throwIfAborted(options?.signal);
      const result = await this.#pool.query(sql.listSessions());
      throwIfAborted(options?.signal);
      return (result.rows as SummaryRow[]).map(summaryOf);
    });
  }

  async *listChunks(options: ListChunksOptions): AsyncIterable<readonly PersistedSessionSummary[]> {
    // One server-side cursor in a read-only transaction: the server sorts once (in code point
    // order, which the primary key's collation may not be) and hands over a chunk per FETCH.
    const client = await this.#run('list', undefined, () => this.#pool.connect());
    let open = false;
    let broken = false;
    try {
      await this.#run('list', undefined, async () => {
        await client.query('BEGIN READ ONLY');
        open = true;
        await client.query(sql.declareListCursor());
      });
      for (;;) {
        const rows = await this.#run('list', undefined, async () => {
          throwIfAborted(options.signal);
          return (await client.query(sql.fetchListCursor(options.chunk))).rows as SummaryRow[];
        });
        if (rows.length > 0) yield rows.map(summaryOf);
        if (rows.length < options.chunk) break;
      }
      await this.#run('list', undefined, () => client.query('COMMIT'));
      open = false;
    } finally {
      // Left early (a failure, or the caller stopped walking): the transaction must not outlive it.
      if (open) await client.query('ROLLBACK').catch(() => (broken = true));
      client.release(broken);
    }
  }

  /** The database's change marker (schema.ts, version 2): moved by every host's creates, deletes and re-creates. */
  changeMarker(): Promise<string | undefined> {
    return this.#run('changeMarker', undefined, async () => {
      const row = (await this.#pool.query(sql.changeMarker())).rows[0] as [string, string] | undefined;
      return row === undefined ? undefined : `${row[0]}:${row[1]}`;
    });
  }

  revisionOf(id: SessionId, options?: ReadOptions): Promise<string | undefined> {
    return this.#run('revisionOf', id, async () => {
      throwIfAborted(options?.signal, id);
      const row = (await this.#pool.query(sql.revisionOf(id))).rows[0] as [string, string] | undefined;
      throwIfAborted(options?.signal, id);
      return row === undefined ? undefined : revisionToken(row[0], row[1]);
    });
  }

  inspect(id: SessionId, options?: ReadOptions): Promise<StoredLog> {
    return this.#run('inspect', id, () => readStoredLog(this.#pool, id, options?.signal));
  }

  /**
   * A full `inspect` (a valid scan: every event keeps its data). The rows are JSON-lines batches
   * that cross the network whole anyway; eliding unread data here would save parse time only.
   */
  scan(id: SessionId, options: ScanOptions): Promise<StoredLog> {
    return this.inspect(id, options);
  }

  load(id: SessionId, options?: ReadOptions): Promise<StoredLog> {
    return this.#run('load', id, async () => {
      for (let attempt = 1; ; attempt++) {
        const log = await readStoredLog(this.#pool, id, options?.signal);
        if (log.repairs.length === 0) return log;
        try {
          // Through the same guarded path as appends, bound to the incarnation just read: closers
          // computed from a log another writer has since extended (or replaced) are never written.
          const written = await this.#appends.enqueue(id, log.repairs, log.incarnation);
          return withRepairsWritten(log, written);
        } catch (error) {
          if (attempt >= LOAD_ATTEMPTS || !isPersistenceError(error, 'PERSISTENCE_SEQ_CONFLICT')) throw error;
        }
      }
    });
  }

  readFrom(id: SessionId, from: SessionSeq, options?: ReadOptions): Promise<StoredSuffix> {
    return this.#run('readFrom', id, () => readStoredSuffix(this.#pool, id, from, options?.signal));
  }

  putAttachment(id: SessionId, attachment: Attachment): Promise<string> {
    return this.#run('putAttachment', id, async () => {
      const ref = createHash('sha256').update(attachment.bytes).digest('hex');
      // A pending session's first write takes its held attachments when it starts: wait until no
      // write is in flight, then decide in the same synchronous step whether the attachment is
      // held for the next first write or goes to the stored row.
      while (this.#pending.has(id) && this.#appends.busy(id)) await this.#appends.idle(id);
      const pending = this.#pending.get(id);
      if (pending !== undefined) {
        // Copied: the caller may reuse its buffer before the first write stores this one.
        if (!pending.attachments.has(ref)) {
          pending.attachments.set(ref, {
            bytes: new Uint8Array(attachment.bytes),
            mediaType: attachment.mediaType,
          });
        }
        return ref;
      }
      const { bytes } = attachment;
      try {
        await this.#pool.query(
          sql.insertAttachment([
            id,
            ref,
            attachment.mediaType,
            Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          ]),
        );
      } catch (error) {
        if (sqlState(error) === FOREIGN_KEY_VIOLATION) throw notFound(id);
        throw error;
      }
      return ref;
    });
  }

  readAttachment(id: SessionId, ref: string, options?: ReadOptions): Promise<Attachment> {
    return this.#run('readAttachment', id, async () => {
      throwIfAborted(options?.signal, id);
      // Held attachments are exactly what a pending session's first write will store.
      const pending = this.#pending.get(id);
      if (pending !== undefined) {
        const held = pending.attachments.get(ref);
        if (held === undefined) throw attachmentNotFound(id, ref);
        return { bytes: new Uint8Array(held.bytes), mediaType: held.mediaType };
      }
      const row = (await this.#pool.query(sql.readAttachment(id, ref))).rows[0] as
        | [string | null, Buffer | null]
        | undefined;
      throwIfAborted(options?.signal, id);
      if (row === undefined) throw notFound(id);
      const [mediaType, bytes] = row;
      if (mediaType === null || bytes === null) throw attachmentNotFound(id, ref);
      return { bytes: new Uint8Array(bytes), mediaType };
    });
  }

  delete(id: SessionId): Promise<void> {
    return this.#run('delete', id, async () => {
      await this.#appends.idle(id);
      const wasPending = this.#pending.delete(id);
      const deleted = await this.#pool.query(sql.deleteSession(id));
      if (deleted.rowCount === 0 && !wasPending) throw notFound(id);
    });
  }

  /** Resolves once every append issued before it has committed (or failed). */
  flush(): Promise<void> {
    return this.#run('flush', undefined, () => this.#appends.idleAll());
  }

  /** Lets queued appends finish, then ends the pool; every later call fails PERSISTENCE_CLOSED. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#appends.idleAll();
    this.#pending.clear();
    await this.#pool.end().catch(() => {
      // Ending a pool only closes its connections; a socket that fails to close is gone anyway.
    });
  }

  #forget(id: SessionId, pending: PendingSession): void {
    if (this.#pending.get(id) === pending) this.#pending.delete(id);
  }

  /** The revision an empty append reports: nothing is written, so it is the current one. */
  async #currentRevision(id: SessionId): Promise<{ readonly revision: string }> {
    await this.#appends.idle(id);
    const pending = this.#pending.get(id);
    if (pending !== undefined) return { revision: revisionToken(pending.incarnation, 0) };
    const row = (await this.#pool.query(sql.revisionOf(id))).rows[0] as [string, string] | undefined;
    if (row === undefined) throw notFound(id);
    return { revision: revisionToken(row[0], row[1]) };
  }

  /** Runs `body` on the open store; every failure becomes a rejection with a typed error. */
  async #run<T>(what: string, sessionId: string | undefined, body: () => Promise<T>): Promise<T> {
    try {
      if (this.#closed) throw closed(what, sessionId);
      return await body();
    } catch (error) {
      const where = sessionId === undefined ? what : `${what} of session ${sessionId}`;
      throw toPersistenceError(error, where, sessionId);
    }
  }
}

/** SQLSTATE of an insert naming a session row that does not exist. */
const FOREIGN_KEY_VIOLATION = '23503';

/** `[id, incarnation, header, revision, stored_bytes]`, the numbers as text (bigint). */
type SummaryRow = [string, string, string, string, string];

function summaryOf(row: SummaryRow): PersistedSessionSummary {
  return storedSummary(...row);
}
