import type { SessionEvent } from '@strand/session';
import { PersistenceError, sessionExists, sessionNotFound } from '../errors.js';
import { encodeEventLines } from './event-lines.js';
import type { FrameIndex } from './frame-index.js';
import { syncFolder } from './folder-syncs.js';
import { writeNewFileAtomically } from './fs-util.js';
import type { LogFile } from './log-file.js';
import { decodePlainLog, type FrameLocation } from './log-decoder.js';
import { scanZstdFrames } from './log-scan.js';
import { LogWriter, revisionOf } from './log-writer.js';
import type { SessionFiles } from './session-files.js';
import { osCode, storageError, typedStorage } from './storage-error.js';
import { FrameKind, encodeFrame } from './zstd-frames.js';

/**
 * The one `LogWriter` per session file this process holds (opened on first write, kept until
 * delete or close). Owns creating a session file (atomically, header and first batch together),
 * reopening an existing one (a torn tail is truncated first), and replacing a writer that failed
 * a write (`LogWriter.broken`). Nothing else in the backend writes a log file. Every storage
 * failure leaves here as the package's error (`storageError`), never as a bare OS error.
 */
export class SessionWriters {
  readonly #files: SessionFiles;
  readonly #compressed: boolean;
  readonly #writers = new Map<string, Promise<LogWriter>>();
  /** With `syncNamesLater`: the logs created whose names no folder fsync has covered yet. */
  readonly #unsyncedNames: [id: string, file: string][] | undefined;

  constructor(files: SessionFiles, compressed: boolean, syncNamesLater = false) {
    this.#files = files;
    this.#compressed = compressed;
    this.#unsyncedNames = syncNamesLater ? [] : undefined;
  }

  /**
   * Makes the names of the logs created since the last call durable: one fsync of `sessions/`
   * (shared with concurrent callers) for all of them. If it fails, none is known durable: each is
   * removed (the session is not stored, as after any failed create) and the error is
   * `PERSISTENCE_IO`. Nothing to do unless created with `syncNamesLater`.
   */
  async syncNewNames(): Promise<void> {
    const names = this.#unsyncedNames?.splice(0) ?? [];
    if (names.length === 0) return;
    try {
      await syncFolder(this.#files.fs, this.#files.sessionsDir);
    } catch (error) {
      for (const [id, file] of names) {
        await this.drop(id);
        await this.#files.fs.unlink(file).catch(() => undefined); // gone already: deleted since
      }
      throw new PersistenceError(
        'PERSISTENCE_IO',
        `could not make ${names.length} new session${names.length === 1 ? '' : 's'} durable${osCode(error)}`,
        { cause: error },
      );
    }
  }

  /**
   * Writes a new session file atomically (header + first batch), opens its writer and returns the
   * file's revision. A failure before the file is durable leaves no file; once it is durable, a
   * writer that fails to open is opened (or its typed error reported) by the next write.
   */
  async materialize(
    id: string,
    escaped: string,
    record: Buffer,
    events: readonly SessionEvent[],
  ): Promise<string> {
    const file = this.#files.logFile(escaped, this.#compressed);
    const lines = encodeEventLines(events);
    const head = this.#compressed ? encodeFrame(FrameKind.Header, 0, 0, record) : record;
    // A materialized empty session is its header alone: no empty events frame.
    const body =
      events.length === 0
        ? Buffer.alloc(0)
        : this.#compressed
          ? encodeFrame(FrameKind.Events, 0, events.length, lines)
          : lines;
    let handle: LogFile | undefined;
    try {
      handle = await writeNewFileAtomically(
        this.#files.fs,
        this.#files.tmpDir,
        file,
        Buffer.concat([head, body]),
        this.#unsyncedNames === undefined,
      );
    } catch (error) {
      throw new PersistenceError('PERSISTENCE_IO', `could not create session ${id}${osCode(error)}`, {
        cause: error,
        sessionId: id,
      });
    }
    if (handle === undefined) throw sessionExists(id);
    this.#unsyncedNames?.push([id, file]);
    const incarnation = (JSON.parse(record.toString('utf8')) as { incarnation: string }).incarnation;
    const frames: FrameLocation[] =
      this.#compressed && events.length > 0
        ? [{ firstSeq: 0, count: events.length, offset: head.length }]
        : [];
    // The handle the file was written through is the writer's, and its stat the revision: a new
    // session costs no second open, no lookup of its name and no stat by path (an import creates
    // thousands). Linking changed the file's ctime, never its size or mtime.
    let stat;
    try {
      stat = this.#files.fs.fstatSync(handle.fd, { bigint: true });
    } catch {
      await handle.close().catch(() => undefined);
      // The batch is durable: the next write opens the writer through `#open` (typed there).
      return this.#revisionOfFile(id, incarnation, file);
    }
    const writer = new LogWriter(
      this.#files.fs,
      id,
      incarnation,
      handle,
      head.length + body.length,
      events.length,
      this.#compressed,
      frames,
    );
    this.#writers.set(id, Promise.resolve(writer));
    return revisionOf(incarnation, stat.size, stat.mtimeNs);
  }

  /** The writer of `id`, opened afresh when the one held failed a write (see `LogWriter.broken`). */
  async healthy(id: string): Promise<LogWriter> {
    const held = this.#writers.get(id);
    const writer = await this.#writer(id);
    if (!writer.broken) return writer;
    if (this.#writers.get(id) === held) this.#writers.delete(id);
    await writer.close().catch(() => undefined); // a broken writer's handle: nothing left to lose
    return this.#writer(id);
  }

  /** True when this process holds a healthy writer of `id`: its log belongs to a live session. */
  async holdsHealthy(id: string): Promise<boolean> {
    const writer = await this.#held(id);
    return writer !== undefined && !writer.broken;
  }

  /** The frame index a held writer keeps current, if one is held (the freshest index there is). */
  async liveIndex(id: string): Promise<FrameIndex | undefined> {
    const writer = await this.#held(id);
    return writer === undefined
      ? undefined
      : { incarnation: writer.incarnation, coveredSize: writer.size, frames: writer.frames };
  }

  /** The revision of the file `writer` appends to, as it is now. */
  async currentRevision(writer: LogWriter): Promise<string> {
    const located = await this.#files.locate(writer.sessionId);
    if (located === undefined) throw sessionNotFound(writer.sessionId);
    return this.#revisionOfFile(writer.sessionId, writer.incarnation, located.file);
  }

  async #revisionOfFile(id: string, incarnation: string, file: string): Promise<string> {
    const stat = await typedStorage(id, () => this.#files.fs.stat(file, { bigint: true }));
    return revisionOf(incarnation, stat.size, stat.mtimeNs);
  }

  /** Closes and forgets the writer of `id` (a delete). */
  async drop(id: string): Promise<void> {
    const writer = this.#writers.get(id);
    this.#writers.delete(id);
    if (writer !== undefined) await (await writer.catch(() => undefined))?.close();
  }

  /** Waits until every held writer has no write in flight. */
  async idle(): Promise<void> {
    for (const writer of [...this.#writers.values()]) await (await writer.catch(() => undefined))?.idle();
  }

  /** Closes every writer, handing each one's final frame index to `saveIndex` (best effort). */
  async closeAll(saveIndex: (id: string, index: FrameIndex) => Promise<void>): Promise<void> {
    for (const [id, pending] of [...this.#writers]) {
      const writer = await pending.catch(() => undefined); // a writer that never opened holds nothing
      if (writer === undefined) continue;
      await writer.close();
      if (this.#compressed || writer.frames.length > 0)
        await saveIndex(id, {
          incarnation: writer.incarnation,
          coveredSize: writer.size,
          frames: writer.frames,
        });
    }
    this.#writers.clear();
  }

  async #held(id: string): Promise<LogWriter | undefined> {
    // A writer that failed to open is no writer.
    return this.#writers.get(id)?.catch(() => undefined);
  }

  /** The writer of an existing file, opened once and shared by concurrent callers. */
  #writer(id: string): Promise<LogWriter> {
    let writer = this.#writers.get(id);
    if (writer === undefined) {
      writer = this.#open(id);
      this.#writers.set(id, writer);
      writer.catch(() => this.#writers.delete(id));
    }
    return writer;
  }

  /** Scans frame metas (no full decode), drops a torn tail, and opens the writer after it. */
  async #open(id: string): Promise<LogWriter> {
    const located = await this.#files.locate(id);
    if (located === undefined) throw sessionNotFound(id);
    const handle = await typedStorage(id, () => this.#files.fs.open(located.file, 'r+'));
    try {
      const buf = await handle.readFile();
      const scan = located.compressed ? scanZstdFrames(buf, id) : decodePlainLog(buf, id);
      if (scan.validEnd < buf.length) {
        await handle.truncate(scan.validEnd);
        await handle.datasync();
      }
      const frames = located.compressed ? scan.frames : [];
      return new LogWriter(
        this.#files.fs,
        id,
        scan.record.incarnation,
        handle,
        scan.validEnd,
        scan.nextSeq,
        located.compressed,
        frames,
      );
    } catch (error) {
      await handle.close().catch(() => undefined); // the first failure is the one to report
      throw storageError(error, id);
    }
  }
}
