import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  SessionLogOffset,
  parseSessionHeader,
  isReadOnlySession,
  repairEvents,
  type SessionEvent,
  type SessionId,
  type SessionSeq,
} from '@strand/session';
import {
  PersistenceError,
  isPersistenceError,
  seqConflict,
  sessionExists,
  sessionNotFound,
  throwIfAborted,
} from '../errors.js';
import { elidedOpenTurnStart, scanRepairs } from '../scanned-log.js';
import { compareSessionIds } from '../id-order.js';
import { checkInherited } from '../stored-records.js';
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
import { AttachmentFiles } from './attachments.js';
import { escapeSessionId } from './file-names.js';
import type { FrameIndex } from './frame-index.js';
import { FrameIndexStore } from './frame-index-store.js';
import { fsyncDir } from './fs-util.js';
import { HeaderCache } from './header-cache.js';
import { encodeHeaderRecord, type HeaderRecord } from './header-record.js';
import type { DecodedLog } from './log-decoder.js';
import { revisionOf } from './log-writer.js';
import { offloadedScan } from './scan-hand-off.js';
import { ScanWorkerClient } from './scan-worker/scan-worker-client.js';
import { SessionFiles, type Located } from './session-files.js';
import { SessionWriters } from './session-writers.js';
import { storageError, storeError, typedStorage } from './storage-error.js';
import type { StorageFs } from './storage-fs.js';
import { readTail, type Tail } from './tail-read.js';
import { readWhole, type WholeRead } from './whole-read.js';

/** Header reads between yields to the event loop while listing (they are synchronous). */
const HEADER_READS_PER_YIELD = 256;

export interface JsonlPersistenceOptions {
  /** The root folder; created if missing. Nothing is ever written outside it. */
  readonly root: string;
  /** `zstd` (default) writes `.zst` logs; `none` writes plain `.jsonl`. Both are always readable. */
  readonly compression?: 'zstd' | 'none';
  /** Told about files `list` had to skip (an unreadable header); listing goes on. */
  readonly onSkippedFile?: (file: string, error: unknown) => void;
  /**
   * `true` (default): `scan` of a mid-sized `.zst` log is read, decompressed and classified on a
   * worker thread while this thread parses (see `scan-worker/`). `false` keeps every read here.
   */
  readonly scanWorker?: boolean;
  /**
   * `true` (default): opening deletes the temp files of interrupted atomic writes. A process that
   * only reads a folder another process writes passes `false`: that writer's temp files are in
   * flight, not leftovers, and deleting one would fail its next session create.
   */
  readonly sweepTemp?: boolean;
  /**
   * `true`: a new session's name is made durable when `close()` resolves, not when its first
   * write does — one fsync of `sessions/` for every session this instance created, where each
   * create otherwise waits for its own. For a writer that reports its sessions only once closed
   * (the import, which creates thousands, each whole in one batch). A close whose fsync fails
   * removes those sessions (none is known stored) and rejects with `PERSISTENCE_IO`. Until then a
   * crash of the machine may lose them; a crash of the process does not.
   */
  readonly syncNewNamesOnClose?: boolean;
  /**
   * The file-system calls every write goes through (default `node:fs/promises`): a seam for tests
   * that inject storage faults.
   * @internal
   */
  readonly fs?: StorageFs;
}

interface PendingCreate {
  readonly header: CreateSessionInput['header'];
  readonly incarnation: string;
}

export async function openJsonlPersistence(
  options: JsonlPersistenceOptions,
): Promise<JsonlSessionPersistence> {
  const root = path.resolve(options.root);
  await new SessionFiles(root, options.fs).prepare(options.sweepTemp !== false);
  return new JsonlSessionPersistence(root, options);
}

/**
 * The default backend: one file per session under `<root>/sessions`, JSON lines in independent
 * zstd frames (docs/decisions/0001-session-log-format.md).
 *
 * A facade over one module per job: `SessionFiles` (where files live), `HeaderCache` (listing
 * headers), `FrameIndexStore` (the derived frame index), `readTail` (tail reads through it),
 * `offloadedScan` (the scan worker hand-off), `readWhole` (the exact and streamed decoders) and
 * `SessionWriters` (every write). This class holds the `SessionPersistence` semantics: lazy
 * creates, which read path a call takes, and the repairs of `load`.
 */
export class JsonlSessionPersistence implements SessionPersistence {
  readonly kind = 'jsonl';
  readonly root: string;
  readonly #files: SessionFiles;
  readonly #compressed: boolean;
  readonly #attachments: AttachmentFiles;
  readonly #pending = new Map<string, PendingCreate>();
  readonly #writers: SessionWriters;
  readonly #indexes: FrameIndexStore;
  readonly #headers = new HeaderCache();
  readonly #onSkippedFile: (file: string, error: unknown) => void;
  readonly #scanWorker: ScanWorkerClient | undefined;
  #closed = false;

  constructor(root: string, options: JsonlPersistenceOptions) {
    this.root = root;
    this.#files = new SessionFiles(root, options.fs);
    this.#compressed = (options.compression ?? 'zstd') === 'zstd';
    this.#attachments = new AttachmentFiles(this.#files.attachmentsDir, this.#files.tmpDir, this.#files.fs);
    this.#writers = new SessionWriters(this.#files, this.#compressed, options.syncNewNamesOnClose === true);
    this.#indexes = new FrameIndexStore(this.#files);
    this.#onSkippedFile = options.onSkippedFile ?? (() => undefined);
    this.#scanWorker = options.scanWorker === false ? undefined : new ScanWorkerClient();
  }

  /**
   * Starts the scan worker if it is on and not started; true once it is ready. Scans never wait
   * for it (they read on this thread until then): this is for benches and tests that want the
   * worker's steady state.
   */
  scanWorkerReady(): Promise<boolean> {
    return this.#scanWorker?.whenReady() ?? Promise.resolve(false);
  }

  /** Scans the worker thread served and declined (undefined when it is off): diagnostics. */
  get scanWorkerStats(): { readonly served: number; readonly declined: number } | undefined {
    return this.#scanWorker === undefined ? undefined : { ...this.#scanWorker.stats };
  }

  /** An id whose escaped file name would pass `MAX_ESCAPED_LENGTH` (about 67 upper-case characters). */
  unstorableIdReason(id: SessionId): string | undefined {
    try {
      escapeSessionId(id);
      return undefined;
    } catch (error) {
      if (isPersistenceError(error, 'PERSISTENCE_ID_UNSTORABLE')) return error.message;
      throw error;
    }
  }

  async create(input: CreateSessionInput): Promise<{ readonly incarnation: string }> {
    this.#assertOpen();
    // The same rules, and the same errors, as every other backend.
    const header = parseSessionHeader(input.header);
    const id = header.id;
    const escaped = escapeSessionId(id);
    const inherited = input.inheritedEvents ?? [];
    checkInherited(header, inherited);
    if (this.#pending.has(id) || (await this.#files.locate(id, escaped)) !== undefined)
      throw sessionExists(id);
    const incarnation = randomUUID();
    if (inherited.length > 0 || input.materialize === true) {
      const record = encodeHeaderRecord(header, incarnation, inherited.length);
      await this.#writers.materialize(id, escaped, record, inherited);
    } else {
      this.#pending.set(id, { header, incarnation });
    }
    return { incarnation };
  }

  async append(id: SessionId, events: readonly SessionEvent[]): Promise<{ readonly revision: string }> {
    this.#assertOpen();
    const pending = this.#pending.get(id);
    if (pending !== undefined) {
      // Nothing to write: a lazily created session stays unstored (as on every backend).
      if (events.length === 0) return { revision: revisionOf(pending.incarnation, 0, 0n) };
      if (events[0]!.seq !== 0) throw seqConflict(id, 0, events[0]!.seq);
      this.#pending.delete(id);
      try {
        const revision = await this.#writers.materialize(
          id,
          escapeSessionId(id),
          encodeHeaderRecord(pending.header, pending.incarnation, 0),
          events,
        );
        return { revision };
      } catch (error) {
        this.#pending.set(id, pending);
        throw error;
      }
    }
    const writer = await this.#writers.healthy(id);
    if (events.length === 0) return { revision: await this.#writers.currentRevision(writer) };
    return { revision: await writer.append(events) };
  }

  async list(options: ReadOptions = {}): Promise<PersistedSessionSummary[]> {
    const sessions = await this.#storedSessions(options);
    const out: PersistedSessionSummary[] = [];
    for (let i = 0; i < sessions.length; i += HEADER_READS_PER_YIELD) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      out.push(...this.#summaries(sessions.slice(i, i + HEADER_READS_PER_YIELD), options));
    }
    throwIfAborted(options.signal);
    return out;
  }

  async *listChunks(options: ListChunksOptions): AsyncIterable<readonly PersistedSessionSummary[]> {
    // The folder's names are listed once (a name per session: far less than its header); headers
    // are read a chunk at a time, in id order.
    const sessions = await this.#storedSessions(options);
    sessions.sort((a, b) => compareSessionIds(a.id, b.id));
    for (let i = 0; i < sessions.length; i += options.chunk) {
      const slice = sessions.slice(i, i + options.chunk);
      const chunk: PersistedSessionSummary[] = [];
      for (let j = 0; j < slice.length; j += HEADER_READS_PER_YIELD) {
        if (i + j > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        this.#assertOpen();
        chunk.push(...this.#summaries(slice.slice(j, j + HEADER_READS_PER_YIELD), options));
      }
      if (chunk.length > 0) yield chunk;
    }
  }

  /** The sessions the folder holds, by their file names (no file is read). */
  async #storedSessions(options: ReadOptions): Promise<{ readonly id: string; readonly located: Located }[]> {
    this.#assertOpen();
    throwIfAborted(options.signal);
    let names: string[];
    try {
      names = await this.#files.fs.readdir(this.#files.sessionsDir);
    } catch (error) {
      throw storeError(error, 'listing the stored sessions');
    }
    const sessions: { readonly id: string; readonly located: Located }[] = [];
    for (const name of names) {
      const session = this.#files.sessionOf(name);
      if (session !== undefined) sessions.push(session);
    }
    return sessions;
  }

  /** These sessions' summaries from their headers; one deleted meanwhile is left out. */
  #summaries(
    sessions: readonly { readonly id: string; readonly located: Located }[],
    options: ReadOptions,
  ): PersistedSessionSummary[] {
    throwIfAborted(options.signal);
    const out: PersistedSessionSummary[] = [];
    // Header reads are sync (see `HeaderCache`): callers yield between batches of them.
    for (const session of sessions) {
      try {
        const { record, size, mtimeNs } = this.#headers.headerOf(session.id, session.located);
        out.push({
          header: record.header,
          incarnation: record.incarnation,
          revision: revisionOf(record.incarnation, size, mtimeNs),
          storedBytes: Number(size),
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // deleted while listing
        this.#onSkippedFile(session.located.file, error);
      }
    }
    return out;
  }

  async revisionOf(id: SessionId, options: ReadOptions = {}): Promise<string | undefined> {
    this.#assertOpen();
    throwIfAborted(options.signal, id);
    const located = await this.#files.locate(id);
    if (located === undefined) return undefined;
    try {
      const { record, size, mtimeNs } = this.#headers.headerOf(id, located);
      return revisionOf(record.incarnation, size, mtimeNs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw storageError(error, id);
    }
  }

  async inspect(id: SessionId, options: ReadOptions = {}): Promise<StoredLog> {
    this.#assertOpen();
    const { decoded, size, mtimeNs } = await this.#readWhole(id, await this.#located(id), options.signal);
    return this.#storedLog(decoded, size, mtimeNs, repairEvents(decoded.events));
  }

  async scan(id: SessionId, options: ScanOptions): Promise<StoredLog> {
    this.#assertOpen();
    const { dataTypes, signal } = options;
    const located = await this.#located(id);
    const offloaded = await offloadedScan(this.#scanWorker, id, located, dataTypes, signal);
    if (offloaded !== undefined) this.#rememberFrames(offloaded.decoded);
    const { decoded, size, mtimeNs } =
      offloaded ?? (await this.#readWhole(id, located, signal, 0, dataTypes));
    const start = elidedOpenTurnStart(decoded.events, dataTypes);
    let fullFrom: readonly SessionEvent[] | undefined;
    if (start !== undefined) {
      // The open turn of a crashed log, in full: its frames through the index just remembered.
      const tail = located.compressed ? await this.#tail(id, located, start, signal) : undefined;
      fullFrom = tail?.events ?? (await this.#readWhole(id, located, signal)).decoded.events.slice(start);
    }
    return this.#storedLog(decoded, size, mtimeNs, scanRepairs(id, decoded.events, fullFrom));
  }

  async load(id: SessionId, options: ReadOptions = {}): Promise<StoredLog> {
    const inspected = await this.inspect(id, options);
    // A log that a healthy writer of this process holds open belongs to a live session: never
    // repair it. A broken writer's session stopped on a failed write: its log is repaired.
    if ((inspected.repairs.length === 0 && !inspected.tornTail) || (await this.#writers.holdsHealthy(id))) {
      return inspected.repairs.length === 0 ? inspected : { ...inspected, repairs: [] };
    }
    const writer = await this.#writers.healthy(id);
    let revision = await this.#writers.currentRevision(writer);
    if (inspected.repairs.length > 0) revision = await writer.append(inspected.repairs);
    return {
      ...inspected,
      events: [...inspected.events, ...inspected.repairs],
      repairs: [],
      revision,
      storedBytes: writer.size,
    };
  }

  async readFrom(id: SessionId, from: SessionSeq, options: ReadOptions = {}): Promise<StoredSuffix> {
    this.#assertOpen();
    throwIfAborted(options.signal, id);
    const located = await this.#located(id);
    if (!located.compressed) {
      const { decoded } = await this.#readWhole(id, located, options.signal, from);
      return this.#suffix(decoded.record, from, decoded.events, decoded.nextSeq, options);
    }
    const tail = await this.#tail(id, located, from, options.signal);
    if (tail !== undefined) return this.#suffix(tail.record, from, tail.events, tail.nextSeq, options);
    const { decoded } = await this.#readWhole(id, located, options.signal);
    await this.#indexes.save(id, this.#frameIndexOf(decoded));
    return this.#suffix(decoded.record, from, decoded.events.slice(from), decoded.nextSeq, options);
  }

  async putAttachment(id: SessionId, attachment: Attachment): Promise<string> {
    this.#assertOpen();
    return this.#attachments.put(id, escapeSessionId(id), attachment);
  }

  async readAttachment(id: SessionId, ref: string, options: ReadOptions = {}): Promise<Attachment> {
    this.#assertOpen();
    throwIfAborted(options.signal, id);
    try {
      return await this.#attachments.read(id, escapeSessionId(id), ref, options.signal);
    } catch (error) {
      throw storageError(error, id);
    }
  }

  async delete(id: SessionId): Promise<void> {
    this.#assertOpen();
    const escaped = escapeSessionId(id);
    const wasPending = this.#pending.delete(id);
    await this.#writers.drop(id);
    const located = await this.#files.locate(id, escaped);
    if (located === undefined && !wasPending) throw sessionNotFound(id);
    // Storage failures are typed; a delete that failed part-way may be repeated (every step
    // tolerates what an earlier attempt already removed).
    await typedStorage(id, async () => {
      if (located !== undefined) {
        this.#headers.forget(located.file);
        await this.#files.fs.rm(located.file, { force: true });
      }
      await this.#indexes.remove(id, escaped);
      await this.#attachments.remove(escaped);
      await fsyncDir(this.#files.fs, this.#files.sessionsDir);
    });
  }

  async flush(): Promise<void> {
    await this.#writers.idle();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#scanWorker?.close();
    try {
      await this.#writers.closeAll((id, index) => this.#indexes.save(id, index));
    } finally {
      await this.#writers.syncNewNames();
    }
  }

  // ---- internals -------------------------------------------------------------------------

  #assertOpen(): void {
    if (this.#closed) throw new PersistenceError('PERSISTENCE_CLOSED', 'the session store is closed');
  }

  async #located(id: string): Promise<Located> {
    const located = await this.#files.locate(id);
    if (located === undefined) throw sessionNotFound(id);
    return located;
  }

  /** A whole read; what it learned about a `.zst` log's frames is kept for later tail reads. */
  async #readWhole(
    id: string,
    located: Located,
    signal: AbortSignal | undefined,
    keepFrom = 0,
    dataTypes?: ReadonlySet<string>,
  ): Promise<WholeRead> {
    const read = await readWhole(id, located, signal, keepFrom, dataTypes);
    if (located.compressed) this.#rememberFrames(read.decoded);
    return read;
  }

  /** The tail from `from` through the freshest index (a held writer's, else the stored one). */
  async #tail(
    id: string,
    located: Located,
    from: number,
    signal: AbortSignal | undefined,
  ): Promise<Tail | undefined> {
    const index = (await this.#writers.liveIndex(id)) ?? (await this.#indexes.find(id));
    return index === undefined ? undefined : readTail(id, located.file, index, from, signal);
  }

  #frameIndexOf(decoded: DecodedLog): FrameIndex {
    return { incarnation: decoded.record.incarnation, coveredSize: decoded.validEnd, frames: decoded.frames };
  }

  #rememberFrames(decoded: DecodedLog): void {
    this.#indexes.remember(decoded.record.header.id, this.#frameIndexOf(decoded));
  }

  #storedLog(decoded: DecodedLog, size: bigint, mtimeNs: bigint, repairs: SessionEvent[]): StoredLog {
    const { record } = decoded;
    return {
      header: record.header,
      incarnation: record.incarnation,
      revision: revisionOf(record.incarnation, size, mtimeNs),
      storedBytes: Number(size),
      inheritedEventCount: record.inheritedEventCount,
      events: decoded.events,
      // An imported session's open turn is its harness's to close, never crash repair's.
      repairs: isReadOnlySession(record.header) ? [] : repairs,
      tornTail: decoded.tornTail,
    };
  }

  async #suffix(
    record: HeaderRecord,
    from: SessionSeq,
    events: readonly SessionEvent[],
    nextSeq: number,
    options: ReadOptions,
  ): Promise<StoredSuffix> {
    throwIfAborted(options.signal, record.header.id);
    const revision = (await this.revisionOf(record.header.id, options)) ?? '';
    return {
      header: record.header,
      inheritedEventCount: record.inheritedEventCount,
      incarnation: record.incarnation,
      revision,
      from,
      events,
      cursor: SessionLogOffset(nextSeq),
    };
  }
}
