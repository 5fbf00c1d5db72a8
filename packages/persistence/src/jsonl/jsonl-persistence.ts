import { randomUUID } from 'node:crypto';
import { closeSync, fstatSync, openSync, promises as fsp, readSync, statSync } from 'node:fs';
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
import { checkInherited } from '../stored-records.js';
import type {
  Attachment,
  CreateSessionInput,
  PersistedSessionSummary,
  ReadOptions,
  ScanOptions,
  SessionPersistence,
  StoredLog,
  StoredSuffix,
} from '../types.js';
import { elidedOpenTurnStart, scanRepairs } from '../scanned-log.js';
import { AttachmentFiles } from './attachments.js';
import { encodeEventLines } from './event-lines.js';
import { escapeSessionId, unescapeSessionId } from './file-names.js';
import { frameContaining, readFrameIndex, encodeFrameIndex, type FrameIndex } from './frame-index.js';
import { fsyncDir, replaceFileAtomically, writeNewFileAtomically } from './fs-util.js';
import { encodeHeaderRecord, type HeaderRecord } from './header-record.js';
import {
  decodePlainLog,
  decodeZstdFrames,
  decodeZstdHeader,
  decodeZstdLog,
  type DecodedLog,
  type FrameLocation,
} from './log-decoder.js';
import { LogWriter, revisionOf } from './log-writer.js';
import { FrameKind, encodeFrame, readMeta } from './zstd-frames.js';
import { scanZstdFrames } from './log-scan.js';
import { STREAMED_DECODE_MIN_BYTES, decodeZstdLogStreamed } from './streamed-decode.js';
import { decodedFromTransfer } from './scan-worker/from-transfer.js';
import { ScanWorkerClient } from './scan-worker/scan-worker-client.js';

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
}

interface Located {
  readonly file: string;
  readonly compressed: boolean;
}

interface PendingCreate {
  readonly header: CreateSessionInput['header'];
  readonly incarnation: string;
}

const HEADER_PROBE = 2 * 1024;
/** Above this stored size a scan streams on this thread instead: the worker holds a log whole. */
const SCAN_WORKER_MAX_BYTES = 16 * 1024 * 1024;
const EXT_ZST = '.zst';
const EXT_PLAIN = '.jsonl';

export async function openJsonlPersistence(
  options: JsonlPersistenceOptions,
): Promise<JsonlSessionPersistence> {
  const root = path.resolve(options.root);
  for (const dir of ['sessions', 'index', 'attachments', 'tmp'])
    await fsp.mkdir(path.join(root, dir), { recursive: true });
  // Temp files of interrupted atomic writes are never linked anywhere: sweep them.
  if (options.sweepTemp !== false)
    for (const name of await fsp.readdir(path.join(root, 'tmp')))
      await fsp.rm(path.join(root, 'tmp', name), { force: true });
  return new JsonlSessionPersistence(root, options);
}

/**
 * The default backend: one file per session under `<root>/sessions`, JSON lines in independent
 * zstd frames (docs/decisions/0001-session-log-format.md).
 */
export class JsonlSessionPersistence implements SessionPersistence {
  readonly kind = 'jsonl';
  readonly #sessionsDir: string;
  readonly #indexDir: string;
  readonly #tmpDir: string;
  readonly #compressed: boolean;
  readonly #attachments: AttachmentFiles;
  readonly #pending = new Map<string, PendingCreate>();
  readonly #writers = new Map<string, Promise<LogWriter>>();
  /** Frame locations learned from reads and writes, so a tail read need not rescan. */
  readonly #frameIndexes = new Map<string, FrameIndex>();
  readonly #onSkippedFile: (file: string, error: unknown) => void;
  /** Header records by file, valid while the file's inode and birth time are unchanged. */
  readonly #headers = new Map<string, { identity: string; record: HeaderRecord }>();
  readonly #scanWorker: ScanWorkerClient | undefined;
  #closed = false;

  constructor(
    readonly root: string,
    options: JsonlPersistenceOptions,
  ) {
    this.#sessionsDir = path.join(root, 'sessions');
    this.#indexDir = path.join(root, 'index');
    this.#tmpDir = path.join(root, 'tmp');
    this.#compressed = (options.compression ?? 'zstd') === 'zstd';
    this.#attachments = new AttachmentFiles(path.join(root, 'attachments'), this.#tmpDir);
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
    if (this.#pending.has(id) || (await this.#locate(id, escaped)) !== undefined) throw sessionExists(id);
    const incarnation = randomUUID();
    if (inherited.length > 0 || input.materialize === true) {
      const record = encodeHeaderRecord(header, incarnation, inherited.length);
      await this.#materialize(id, escaped, record, inherited);
    } else {
      this.#pending.set(id, { header, incarnation });
    }
    return { incarnation };
  }

  async append(id: SessionId, events: readonly SessionEvent[]): Promise<{ readonly revision: string }> {
    this.#assertOpen();
    const pending = this.#pending.get(id);
    if (pending !== undefined) {
      if (events.length === 0) throw sessionNotFound(id);
      if (events[0]!.seq !== 0) throw seqConflict(id, 0, events[0]!.seq);
      this.#pending.delete(id);
      try {
        const writer = await this.#materialize(
          id,
          escapeSessionId(id),
          encodeHeaderRecord(pending.header, pending.incarnation, 0),
          events,
        );
        return { revision: await this.#currentRevision(writer) };
      } catch (error) {
        this.#pending.set(id, pending);
        throw error;
      }
    }
    const writer = await this.#healthyWriter(id);
    if (events.length === 0) return { revision: await this.#currentRevision(writer) };
    return { revision: await writer.append(events) };
  }

  async list(options: ReadOptions = {}): Promise<PersistedSessionSummary[]> {
    this.#assertOpen();
    throwIfAborted(options.signal);
    const names = await fsp.readdir(this.#sessionsDir);
    const out: PersistedSessionSummary[] = [];
    // Header reads use sync calls in chunks: each is a few µs against the page cache, far cheaper
    // than a thread-pool round trip per call; yielding between chunks keeps the loop responsive.
    for (let i = 0; i < names.length; i++) {
      if (i % 256 === 0 && i > 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        throwIfAborted(options.signal);
      }
      const name = names[i]!;
      const compressed = name.endsWith(EXT_ZST);
      if (!compressed && !name.endsWith(EXT_PLAIN)) continue;
      const id = unescapeSessionId(name.slice(0, -(compressed ? EXT_ZST : EXT_PLAIN).length));
      if (id === undefined) continue;
      const file = path.join(this.#sessionsDir, name);
      try {
        const { record, size, mtimeNs } = this.#headerOf(id, { file, compressed });
        out.push({
          header: record.header,
          incarnation: record.incarnation,
          revision: revisionOf(record.incarnation, size, mtimeNs),
          storedBytes: Number(size),
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // deleted while listing
        this.#onSkippedFile(file, error);
      }
    }
    throwIfAborted(options.signal);
    return out;
  }

  async revisionOf(id: SessionId, options: ReadOptions = {}): Promise<string | undefined> {
    this.#assertOpen();
    throwIfAborted(options.signal, id);
    const located = await this.#locate(id);
    if (located === undefined) return undefined;
    try {
      const { record, size, mtimeNs } = this.#headerOf(id, located);
      return revisionOf(record.incarnation, size, mtimeNs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw this.#mapError(error, id);
    }
  }

  async inspect(id: SessionId, options: ReadOptions = {}): Promise<StoredLog> {
    this.#assertOpen();
    const { decoded, size, mtimeNs } = await this.#readWhole(id, options.signal);
    return this.#storedLog(decoded, size, mtimeNs, repairEvents(decoded.events));
  }

  async scan(id: SessionId, options: ScanOptions): Promise<StoredLog> {
    this.#assertOpen();
    const { dataTypes, signal } = options;
    const located = await this.#locate(id);
    if (located === undefined) throw this.#notFound(id);
    const { decoded, size, mtimeNs } =
      (await this.#offloadedScan(id, located, dataTypes, signal)) ??
      (await this.#readWhole(id, signal, located, 0, dataTypes));
    const start = elidedOpenTurnStart(decoded.events, dataTypes);
    let fullFrom: readonly SessionEvent[] | undefined;
    if (start !== undefined) {
      // The open turn of a crashed log, in full: its frames through the index just remembered.
      const tail = await this.#readTailViaIndex(id, located.file, start, signal).catch(() => undefined);
      fullFrom = tail?.events ?? (await this.#readWhole(id, signal, located)).decoded.events.slice(start);
    }
    return this.#storedLog(decoded, size, mtimeNs, scanRepairs(id, decoded.events, fullFrom));
  }

  async load(id: SessionId, options: ReadOptions = {}): Promise<StoredLog> {
    const inspected = await this.inspect(id, options);
    // A log that a healthy writer of this process holds open belongs to a live session: never
    // repair it. A broken writer's session stopped on a failed write: its log is repaired.
    if ((inspected.repairs.length === 0 && !inspected.tornTail) || (await this.#holdsHealthyWriter(id))) {
      return inspected.repairs.length === 0 ? inspected : { ...inspected, repairs: [] };
    }
    const writer = await this.#healthyWriter(id);
    let revision = await this.#currentRevision(writer);
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
    const located = await this.#locate(id);
    if (located === undefined) throw this.#notFound(id);
    if (!located.compressed) {
      const { decoded } = await this.#readWhole(id, options.signal, located, from);
      return this.#suffix(decoded.record, from, decoded.events, decoded.nextSeq, options);
    }
    try {
      const tail = await this.#readTailViaIndex(id, located.file, from, options.signal);
      if (tail !== undefined) return this.#suffix(tail.record, from, tail.events, tail.nextSeq, options);
    } catch (error) {
      if (error instanceof PersistenceError && error.code !== 'PERSISTENCE_CORRUPT') throw error;
      // A corrupt-looking tail read through the index is re-judged by the full read below.
    }
    const { decoded, size } = await this.#readWhole(id, options.signal, located);
    await this.#saveFrameIndex(
      id,
      { incarnation: decoded.record.incarnation, coveredSize: decoded.validEnd, frames: decoded.frames },
      size,
    );
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
      throw this.#mapError(error, id);
    }
  }

  async delete(id: SessionId): Promise<void> {
    this.#assertOpen();
    const escaped = escapeSessionId(id);
    const wasPending = this.#pending.delete(id);
    const writer = this.#writers.get(id);
    this.#writers.delete(id);
    if (writer !== undefined) await (await writer.catch(() => undefined))?.close();
    this.#frameIndexes.delete(id);
    const located = await this.#locate(id, escaped);
    if (located === undefined && !wasPending) throw this.#notFound(id);
    if (located !== undefined) {
      this.#headers.delete(located.file);
      await fsp.rm(located.file, { force: true });
    }
    await fsp.rm(path.join(this.#indexDir, escaped + '.idx'), { force: true });
    await this.#attachments.remove(escaped);
    await fsyncDir(this.#sessionsDir);
  }

  async flush(): Promise<void> {
    for (const writer of [...this.#writers.values()]) await (await writer.catch(() => undefined))?.idle();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#scanWorker?.close();
    for (const [id, pending] of [...this.#writers]) {
      const writer = await pending.catch(() => undefined);
      if (writer === undefined) continue;
      await writer.close();
      if (this.#compressed || writer.frames.length > 0) {
        await this.#saveFrameIndex(
          id,
          { incarnation: writer.incarnation, coveredSize: writer.size, frames: writer.frames },
          BigInt(writer.size),
        ).catch(() => {
          // The index is derived; a failed save only costs a rebuild later.
        });
      }
    }
    this.#writers.clear();
  }

  // ---- internals -------------------------------------------------------------------------

  #assertOpen(): void {
    if (this.#closed) throw new PersistenceError('PERSISTENCE_CLOSED', 'the session store is closed');
  }

  #notFound(id: string): PersistenceError {
    return sessionNotFound(id);
  }

  #mapError(error: unknown, id: string): PersistenceError {
    if (error instanceof PersistenceError) return error;
    const e = error as NodeJS.ErrnoException;
    if (e.name === 'AbortError' || e.code === 'ABORT_ERR') {
      return new PersistenceError('PERSISTENCE_ABORTED', `read of ${id} was aborted`, {
        cause: error,
        sessionId: id,
      });
    }
    if (e.code === 'ENOENT') return this.#notFound(id);
    return new PersistenceError('PERSISTENCE_IO', `storage failed for session ${id}: ${e.message}`, {
      cause: error,
      sessionId: id,
    });
  }

  async #locate(id: string, escaped = escapeSessionId(id)): Promise<Located | undefined> {
    for (const compressed of [true, false]) {
      const file = path.join(this.#sessionsDir, escaped + (compressed ? EXT_ZST : EXT_PLAIN));
      try {
        await fsp.access(file);
        return { file, compressed };
      } catch {
        // Not this variant; try the other.
      }
    }
    return undefined;
  }

  async #readWhole(
    id: string,
    signal: AbortSignal | undefined,
    known?: Located,
    keepFrom = 0,
    dataTypes?: ReadonlySet<string>,
  ): Promise<{ decoded: DecodedLog; size: bigint; mtimeNs: bigint }> {
    throwIfAborted(signal, id);
    const located = known ?? (await this.#locate(id));
    if (located === undefined) throw this.#notFound(id);
    let buf: Buffer | undefined;
    let streamed: DecodedLog | undefined;
    let size: bigint;
    let mtimeNs: bigint;
    try {
      const handle = await fsp.open(located.file, 'r');
      try {
        const stat = await handle.stat({ bigint: true });
        size = stat.size;
        mtimeNs = stat.mtimeNs;
        // A large clean log is streamed, never held whole; anything unusual about it comes back
        // undefined and takes the exact decoder below.
        if (located.compressed && keepFrom === 0 && size >= STREAMED_DECODE_MIN_BYTES)
          streamed = await decodeZstdLogStreamed(handle, Number(size), id, signal, dataTypes);
        if (streamed === undefined) buf = await handle.readFile(signal === undefined ? {} : { signal });
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw this.#mapError(error, id);
    }
    throwIfAborted(signal, id);
    const decoded =
      streamed ?? (located.compressed ? decodeZstdLog(buf!, id) : decodePlainLog(buf!, id, keepFrom));
    if (located.compressed)
      this.#rememberFrames(id, {
        incarnation: decoded.record.incarnation,
        coveredSize: decoded.validEnd,
        frames: decoded.frames,
      });
    return { decoded, size, mtimeNs };
  }

  /**
   * A scan through the worker thread, for a `.zst` log large enough to be worth the hand-off and
   * small enough to hold whole there. Undefined whenever the worker declines or anything does not
   * add up: the caller then reads the log on this thread, which judges any damage.
   */
  async #offloadedScan(
    id: string,
    located: Located,
    dataTypes: ReadonlySet<string>,
    signal: AbortSignal | undefined,
  ): Promise<{ decoded: DecodedLog; size: bigint; mtimeNs: bigint } | undefined> {
    if (!located.compressed || this.#scanWorker === undefined) return undefined;
    const size = await fsp.stat(located.file).then(
      (stat) => stat.size,
      () => undefined,
    );
    if (size === undefined || size < STREAMED_DECODE_MIN_BYTES || size > SCAN_WORKER_MAX_BYTES)
      return undefined;
    const transfer = await this.#scanWorker.scan(located.file, dataTypes);
    throwIfAborted(signal, id);
    const decoded = transfer === undefined ? undefined : decodedFromTransfer(transfer, id);
    if (transfer === undefined || decoded === undefined) return undefined;
    this.#rememberFrames(id, {
      incarnation: decoded.record.incarnation,
      coveredSize: decoded.validEnd,
      frames: decoded.frames,
    });
    return { decoded, size: BigInt(transfer.size), mtimeNs: BigInt(transfer.mtimeNs) };
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

  /**
   * A file's header record never changes while the file exists, so a listing re-reads only files
   * it has not seen: one `stat` per file, keyed by inode and birth time (a deleted and recreated
   * session is a new file even if the inode number is reused).
   */
  #headerOf(id: string, located: Located): { record: HeaderRecord; size: bigint; mtimeNs: bigint } {
    const stat = statSync(located.file, { bigint: true });
    const identity = `${stat.ino}:${stat.birthtimeNs}`;
    const cached = this.#headers.get(located.file);
    if (cached !== undefined && cached.identity === identity)
      return { record: cached.record, size: stat.size, mtimeNs: stat.mtimeNs };
    const read = readHeaderSync(id, located);
    this.#headers.set(located.file, { identity, record: read.record });
    return read;
  }

  #rememberFrames(id: string, index: FrameIndex): void {
    this.#frameIndexes.delete(id);
    this.#frameIndexes.set(id, index);
    // A small LRU: frame tables are a few KB each, but a host may touch thousands of sessions.
    if (this.#frameIndexes.size > 256) this.#frameIndexes.delete(this.#frameIndexes.keys().next().value!);
  }

  async #saveFrameIndex(id: string, index: FrameIndex, _size: bigint): Promise<void> {
    this.#rememberFrames(id, index);
    await replaceFileAtomically(
      this.#tmpDir,
      path.join(this.#indexDir, escapeSessionId(id) + '.idx'),
      encodeFrameIndex(index),
    ).catch(() => {
      // Derived data: a failed save only costs a rebuild later.
    });
  }

  /**
   * Reads only the frames holding seqs >= `from`, located through the frame index (memory, then
   * the sidecar file) and verified against the meta frame at the offset used. Returns undefined
   * when no trustworthy index exists; the caller then reads the whole file and rebuilds it.
   */
  async #readTailViaIndex(
    id: string,
    file: string,
    from: number,
    signal: AbortSignal | undefined,
  ): Promise<{ record: HeaderRecord; events: SessionEvent[]; nextSeq: number } | undefined> {
    const live = this.#writers.has(id) ? await this.#writers.get(id)!.catch(() => undefined) : undefined;
    const index =
      (live !== undefined
        ? { incarnation: live.incarnation, coveredSize: live.size, frames: live.frames }
        : undefined) ??
      this.#frameIndexes.get(id) ??
      (await readFrameIndex(path.join(this.#indexDir, escapeSessionId(id) + '.idx')));
    if (index === undefined) return undefined;
    const handle = await fsp.open(file, 'r');
    try {
      const stat = await handle.stat();
      if (stat.size < index.coveredSize) return undefined;
      const headBuf = Buffer.allocUnsafe(Math.min(HEADER_PROBE, stat.size));
      await handle.read(headBuf, 0, headBuf.length, 0);
      const head = decodeZstdHeader(headBuf, id);
      if (head === 'short' || head.record.incarnation !== index.incarnation) return undefined;
      const last = index.frames.at(-1);
      const coveredNext = last === undefined ? 0 : last.firstSeq + last.count;
      let start: FrameLocation | { firstSeq: number; offset: number };
      if (from >= coveredNext)
        start = { firstSeq: coveredNext, offset: index.coveredSize === 0 ? head.end : index.coveredSize };
      else start = index.frames[Math.max(0, frameContaining(index.frames, from))]!;
      if (start.offset < head.end) return undefined;
      const length = stat.size - start.offset;
      const buf = Buffer.allocUnsafe(length);
      if (length > 0) await handle.read(buf, 0, length, start.offset);
      throwIfAborted(signal, id);
      if (length > 0) {
        const meta = readMeta(buf, 0);
        if (
          meta.status !== 'ok' ||
          meta.meta.kind !== FrameKind.Events ||
          meta.meta.firstSeq !== start.firstSeq
        )
          return undefined;
      }
      const decoded = decodeZstdFrames(buf, id, 0, start.firstSeq, from);
      return { record: head.record, events: decoded.events, nextSeq: decoded.nextSeq };
    } finally {
      await handle.close();
    }
  }

  async #currentRevision(writer: LogWriter): Promise<string> {
    const located = await this.#locate(writer.sessionId);
    if (located === undefined) throw this.#notFound(writer.sessionId);
    const stat = await fsp.stat(located.file, { bigint: true });
    return revisionOf(writer.incarnation, stat.size, stat.mtimeNs);
  }

  /** Writes a new session file atomically (header + first batch) and opens its writer. */
  async #materialize(
    id: string,
    escaped: string,
    record: Buffer,
    events: readonly SessionEvent[],
  ): Promise<LogWriter> {
    const file = path.join(this.#sessionsDir, escaped + (this.#compressed ? EXT_ZST : EXT_PLAIN));
    const lines = encodeEventLines(events);
    const head = this.#compressed ? encodeFrame(FrameKind.Header, 0, 0, record) : record;
    // A materialized empty session is its header alone: no empty events frame.
    const body =
      events.length === 0
        ? Buffer.alloc(0)
        : this.#compressed
          ? encodeFrame(FrameKind.Events, 0, events.length, lines)
          : lines;
    let created: boolean;
    try {
      created = await writeNewFileAtomically(this.#tmpDir, file, Buffer.concat([head, body]));
    } catch (error) {
      throw new PersistenceError('PERSISTENCE_IO', `could not create session ${id}`, {
        cause: error,
        sessionId: id,
      });
    }
    if (!created)
      throw new PersistenceError('PERSISTENCE_EXISTS', `session ${id} already exists`, { sessionId: id });
    const incarnation = (JSON.parse(record.toString('utf8')) as { incarnation: string }).incarnation;
    const frames: FrameLocation[] =
      this.#compressed && events.length > 0
        ? [{ firstSeq: 0, count: events.length, offset: head.length }]
        : [];
    const handle = await fsp.open(file, 'r+');
    const writer = new LogWriter(
      id,
      incarnation,
      handle,
      head.length + body.length,
      events.length,
      this.#compressed,
      frames,
    );
    this.#writers.set(id, Promise.resolve(writer));
    return writer;
  }

  /** The writer of `id`, opened afresh when the one held failed a write (see `LogWriter.broken`). */
  async #healthyWriter(id: string): Promise<LogWriter> {
    const held = this.#writers.get(id);
    const writer = await this.#writer(id);
    if (!writer.broken) return writer;
    if (this.#writers.get(id) === held) this.#writers.delete(id);
    await writer.close().catch(() => undefined);
    return this.#writer(id);
  }

  async #holdsHealthyWriter(id: string): Promise<boolean> {
    const held = this.#writers.get(id);
    if (held === undefined) return false;
    const writer = await held.catch(() => undefined);
    return writer !== undefined && !writer.broken;
  }

  /** The writer of an existing file: scans frame metas (no full decode) and drops a torn tail. */
  #writer(id: string): Promise<LogWriter> {
    let writer = this.#writers.get(id);
    if (writer === undefined) {
      writer = this.#openWriter(id);
      this.#writers.set(id, writer);
      writer.catch(() => this.#writers.delete(id));
    }
    return writer;
  }

  async #openWriter(id: string): Promise<LogWriter> {
    const located = await this.#locate(id);
    if (located === undefined) throw this.#notFound(id);
    const handle = await fsp.open(located.file, 'r+');
    try {
      const buf = await handle.readFile();
      const scan = located.compressed ? scanZstdFrames(buf, id) : decodePlainLog(buf, id);
      if (scan.validEnd < buf.length) {
        await handle.truncate(scan.validEnd);
        await handle.datasync();
      }
      const frames = located.compressed ? scan.frames : [];
      return new LogWriter(
        id,
        scan.record.incarnation,
        handle,
        scan.validEnd,
        scan.nextSeq,
        located.compressed,
        frames,
      );
    } catch (error) {
      await handle.close();
      throw this.#mapError(error, id);
    }
  }
}

/** Reads and validates a session file's header record with a few small sync reads. */
function readHeaderSync(
  id: string,
  located: Located,
): { record: HeaderRecord; size: bigint; mtimeNs: bigint } {
  const fd = openSync(located.file, 'r');
  try {
    const stat = fstatSync(fd, { bigint: true });
    const total = Number(stat.size);
    let probe = Math.min(HEADER_PROBE, total);
    for (;;) {
      const buf = Buffer.allocUnsafe(probe);
      const slice = buf.subarray(0, readSync(fd, buf, 0, probe, 0));
      if (located.compressed) {
        const head = decodeZstdHeader(slice, id);
        if (head !== 'short') return { record: head.record, size: stat.size, mtimeNs: stat.mtimeNs };
      } else if (slice.includes(10)) {
        return {
          record: decodePlainLog(slice.subarray(0, slice.indexOf(10) + 1), id).record,
          size: stat.size,
          mtimeNs: stat.mtimeNs,
        };
      }
      if (probe >= total) {
        throw new PersistenceError('PERSISTENCE_CORRUPT', `session ${id}: truncated header`, {
          sessionId: id,
          location: { byteOffset: 0 },
        });
      }
      probe = Math.min(probe * 8, total);
    }
  } finally {
    closeSync(fd);
  }
}
