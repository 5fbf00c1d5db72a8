import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import {
  parseSessionHeader,
  type SessionEvent,
  type SessionId,
  type SessionSeq,
  defined,
} from '@strand/session';
import { isPersistenceError, PersistenceError, throwIfAborted } from '../errors.js';
import type {
  Attachment,
  CreateSessionInput,
  ListChunksOptions,
  PersistedSessionSummary,
  ReadOptions,
  ScanOptions,
  SessionPersistence,
  StoredLog,
  StoredSuffix,
} from '../types.js';
import { openDatabase } from './open-database.js';
import { checkInherited, revisionToken, storedSummary, withRepairsWritten } from '../stored-records.js';
import { readStoredLog, readStoredSuffix } from './read-log.js';
import { prepareStatements, type Statements, type SummaryRow } from './statements.js';
import { attachmentNotFound, exists, notFound, toPersistenceError } from './sqlite-errors.js';
import { newPendingSession, writeBatch, type PendingSession, type WriteResult } from './write-batch.js';
import { AppendGroups } from './append-groups.js';
import { changeMarkerStatement } from './change-marker.js';
import { writeGroup, type GroupCommitted, type GroupWriter } from './write-group.js';

export interface SqlitePersistenceOptions {
  /** The database file; created and initialized when it does not exist or is empty. */
  readonly path: string;
  /**
   * Opens the connection (default `new Database(path)`): a seam for tests that inject SQLite
   * failures (SQLITE_FULL, SQLITE_IOERR…) where the OS would not produce them on demand.
   * @internal
   */
  readonly connect?: (path: string) => Database.Database;
  /**
   * Called after each committed group of appends: a seam for tests (and the crash writer) that
   * observe grouping by counting commits instead of timing them.
   * @internal
   */
  readonly onGroupCommitted?: (group: GroupCommitted) => void;
}

/** How often a repairing `load` re-reads after losing a race with another writer. */
const LOAD_ATTEMPTS = 3;

/**
 * The SQLite backend of `SessionPersistence`: one database file, one connection, synchronous
 * better-sqlite3 calls behind the async interface. Appends issued in one turn of the event loop,
 * of any sessions, are committed as one IMMEDIATE transaction with `synchronous=FULL` (one sync
 * for all of them; each in its own SAVEPOINT), so an append is durable when its promise resolves;
 * a lone writer waits only for the end of its turn, never for a batch window.
 */
export class SqliteSessionPersistence implements SessionPersistence {
  readonly kind = 'sqlite';
  readonly path: string;
  readonly #db: Database.Database;
  readonly #sql: Statements;
  readonly #pending = new Map<SessionId, PendingSession>();
  readonly #writeTx: Database.Transaction<
    (
      id: SessionId,
      events: readonly SessionEvent[],
      pending?: PendingSession,
      incarnation?: string,
    ) => WriteResult
  >;
  readonly #readTx: Database.Transaction<(read: () => unknown) => unknown>;
  readonly #deleteTx: Database.Transaction<(key: number) => void>;
  readonly #appends: AppendGroups;
  readonly #changeMarker: () => string | undefined;
  #closed = false;

  constructor(options: SqlitePersistenceOptions) {
    this.path = options.path;
    this.#db = openDatabase(options.path, options.connect);
    try {
      this.#sql = prepareStatements(this.#db);
      this.#changeMarker = changeMarkerStatement(this.#db);
    } catch (error) {
      this.#db.close();
      throw toPersistenceError(error, `preparing statements for ${options.path}`);
    }
    this.#writeTx = this.#db.transaction(
      (id: SessionId, events: readonly SessionEvent[], pending?: PendingSession, incarnation?: string) =>
        writeBatch(this.#sql, id, events, pending, incarnation),
    );
    this.#readTx = this.#db.transaction((read: () => unknown) => read());
    const group: GroupWriter = {
      db: this.#db,
      groupTx: this.#db.transaction((body: () => void) => body()),
      writeTx: this.#writeTx,
      pending: this.#pending,
      toError: (error, id) => toPersistenceError(error, `write of session ${id}`, id),
      onCommitted: options.onGroupCommitted,
    };
    this.#appends = new AppendGroups((appends) => writeGroup(group, appends));
    this.#deleteTx = this.#db.transaction((key: number) => {
      this.#sql.deleteEvents.run(key);
      this.#sql.deleteAttachments.run(key);
      this.#sql.deleteSession.run(key);
    });
  }

  create(input: CreateSessionInput): Promise<{ readonly incarnation: string }> {
    let written: Promise<string> | undefined;
    // No drain first: a create reads no events, and its own write joins the group queued so far.
    const created = this.#run(
      'create',
      input.header.id,
      () => {
        const header = parseSessionHeader(input.header);
        const inherited = input.inheritedEvents ?? [];
        checkInherited(header, inherited);
        if (this.#pending.has(header.id) || this.#sql.sessionKey.get(header.id) !== undefined) {
          throw exists(header.id);
        }
        const pending = newPendingSession(header, inherited.length);
        this.#pending.set(header.id, pending);
        // A seeded prefix (or `materialize`) is written at once, as the first append of its lazy
        // session: it joins this turn's group, so creates issued together share one commit (one
        // sync). An ordinary session waits for its first append.
        if (inherited.length > 0 || input.materialize === true) {
          written = this.#appends.enqueue(header.id, inherited).catch((error: unknown) => {
            // Not written: nothing of this create remains, as if it had never been called.
            if (this.#pending.get(header.id) === pending) this.#pending.delete(header.id);
            throw error;
          });
        }
        return { incarnation: pending.incarnation };
      },
      { drain: false },
    );
    if (written === undefined) return created;
    const durable = written;
    return created.then(async (result) => {
      await durable;
      return result;
    });
  }

  append(id: SessionId, events: readonly SessionEvent[]): Promise<{ readonly revision: string }> {
    if (events.length > 0 && !this.#closed) {
      return this.#appends.enqueue(id, events).then((revision) => ({ revision }));
    }
    return this.#run('append', id, () => {
      // Nothing to write: the revision stays what it is (once the appends queued before are in).
      const pending = this.#pending.get(id);
      if (pending !== undefined) return { revision: revisionToken(pending.incarnation, 0) };
      const row = this.#sql.revisionOf.get(id);
      if (row === undefined) throw notFound(id);
      return { revision: revisionToken(row[0], row[1]) };
    });
  }

  list(options?: ReadOptions): Promise<PersistedSessionSummary[]> {
    return this.#run('list', undefined, () => {
      throwIfAborted(options?.signal);
      return this.#sql.listSessions.all().map(summaryOf);
    });
  }

  async *listChunks(options: ListChunksOptions): AsyncIterable<readonly PersistedSessionSummary[]> {
    // Keyset pages: each is one index range of the primary key, and the walk holds one at a time.
    let after = '';
    for (;;) {
      const chunk = await this.#run('list', undefined, () => {
        throwIfAborted(options.signal);
        return this.#sql.listSessionsAfter.all(after, options.chunk).map(summaryOf);
      });
      if (chunk.length > 0) yield chunk;
      if (chunk.length < options.chunk) return;
      after = chunk.at(-1)!.header.id;
    }
  }

  /** The database's change marker (change-marker.ts): moved by every write of any process that adds, deletes or re-creates a session. */
  changeMarker(): Promise<string | undefined> {
    return this.#run('changeMarker', undefined, () => this.#changeMarker());
  }

  revisionOf(id: SessionId, options?: ReadOptions): Promise<string | undefined> {
    return this.#run('revisionOf', id, () => {
      throwIfAborted(options?.signal, id);
      const row = this.#sql.revisionOf.get(id);
      return row === undefined ? undefined : revisionToken(row[0], row[1]);
    });
  }

  inspect(id: SessionId, options?: ReadOptions): Promise<StoredLog> {
    return this.#run('inspect', id, () => {
      throwIfAborted(options?.signal, id);
      return this.#read(() => readStoredLog(this.#sql, id));
    });
  }

  scan(id: SessionId, options: ScanOptions): Promise<StoredLog> {
    return this.#run('scan', id, () => {
      throwIfAborted(options.signal, id);
      return this.#read(() => readStoredLog(this.#sql, id, options.dataTypes));
    });
  }

  load(id: SessionId, options?: ReadOptions): Promise<StoredLog> {
    return this.#run('load', id, () => {
      throwIfAborted(options?.signal, id);
      for (let attempt = 1; ; attempt++) {
        const log = this.#read(() => readStoredLog(this.#sql, id));
        if (log.repairs.length === 0) return log;
        try {
          // The write checks incarnation and next seq, so closers computed from a log another
          // writer has since extended (or replaced) are never written.
          const written = this.#writeTx.immediate(id, log.repairs, undefined, log.incarnation);
          return withRepairsWritten(log, written);
        } catch (error) {
          if (attempt >= LOAD_ATTEMPTS || !isPersistenceError(error, 'PERSISTENCE_SEQ_CONFLICT')) throw error;
        }
      }
    });
  }

  readFrom(id: SessionId, from: SessionSeq, options?: ReadOptions): Promise<StoredSuffix> {
    return this.#run('readFrom', id, () => {
      throwIfAborted(options?.signal, id);
      return this.#read(() => readStoredSuffix(this.#sql, id, from));
    });
  }

  putAttachment(id: SessionId, attachment: Attachment): Promise<string> {
    return this.#run('putAttachment', id, () => {
      const ref = createHash('sha256').update(attachment.bytes).digest('hex');
      const key = this.#sql.sessionKey.get(id);
      if (key !== undefined) {
        const { bytes } = attachment;
        this.#sql.insertAttachment.run(
          key,
          ref,
          attachment.mediaType,
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        );
        return ref;
      }
      const pending = this.#pending.get(id);
      if (pending === undefined) throw notFound(id);
      // Copied: the caller may reuse its buffer before the first append writes this one.
      if (!pending.attachments.has(ref)) {
        pending.attachments.set(ref, {
          bytes: new Uint8Array(attachment.bytes),
          mediaType: attachment.mediaType,
        });
      }
      return ref;
    });
  }

  readAttachment(id: SessionId, ref: string, options?: ReadOptions): Promise<Attachment> {
    return this.#run('readAttachment', id, () => {
      throwIfAborted(options?.signal, id);
      const key = this.#sql.sessionKey.get(id);
      if (key === undefined) {
        const pending = this.#pending.get(id);
        if (pending === undefined) throw notFound(id);
        const held = pending.attachments.get(ref);
        if (held === undefined) throw attachmentNotFound(id, ref);
        return { bytes: new Uint8Array(held.bytes), mediaType: held.mediaType };
      }
      const row = this.#sql.attachment.get(key, ref);
      if (row === undefined) throw attachmentNotFound(id, ref);
      return { bytes: new Uint8Array(row[1]), mediaType: row[0] };
    });
  }

  delete(id: SessionId): Promise<void> {
    return this.#run('delete', id, () => {
      const wasPending = this.#pending.delete(id);
      const key = this.#sql.sessionKey.get(id);
      if (key !== undefined) this.#deleteTx.immediate(key);
      else if (!wasPending) throw notFound(id);
    });
  }

  /** Commits the appends queued for the next group now; each is durable when it resolves. */
  flush(): Promise<void> {
    return this.#run('flush', undefined, () => undefined);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return this.#run('close', undefined, () => {
      this.#closed = true;
      // #run committed the queued appends already; nothing can queue after #closed.
      this.#pending.clear();
      this.#db.close();
    });
  }

  /**
   * Runs `body` against the open database and settles with its result. better-sqlite3 is
   * synchronous, so the work is done when this returns; every failure (including a closed
   * store) becomes a rejection with a typed error, never a synchronous throw. The appends queued
   * before are committed first, so every call sees (and writes after) what its caller appended
   * (`drain: false` for a create, which reads no events and queues its own write behind them).
   */
  #run<T>(what: string, sessionId: string | undefined, body: () => T, { drain = true } = {}): Promise<T> {
    try {
      if (this.#closed) {
        throw new PersistenceError('PERSISTENCE_CLOSED', `${what}: the SQLite store ${this.path} is closed`, {
          ...defined({ sessionId }),
        });
      }
      if (drain) this.#appends.drain();
      return Promise.resolve(body());
    } catch (error) {
      const where = sessionId === undefined ? what : `${what} of session ${sessionId}`;
      return Promise.reject(toPersistenceError(error, where, sessionId));
    }
  }

  /** Runs `read` in one read transaction: one snapshot across its statements. */
  #read<T>(read: () => T): T {
    return this.#readTx.deferred(read) as T;
  }
}

/** Opens (creating or initializing if needed) a SQLite session store at `options.path`. */
export function openSqlitePersistence(options: SqlitePersistenceOptions): SqliteSessionPersistence {
  return new SqliteSessionPersistence(options);
}

function summaryOf(row: SummaryRow): PersistedSessionSummary {
  return storedSummary(...row);
}
