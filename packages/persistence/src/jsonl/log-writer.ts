import type { SessionEvent } from '@strand/session';
import { PersistenceError } from '../errors.js';
import { encodeEventLines } from './event-lines.js';
import type { FrameLocation } from './log-decoder.js';
import type { LogFile } from './log-file.js';
import { osCode, storageError } from './storage-error.js';
import type { StorageFs } from './storage-fs.js';
import { FrameKind, encodeFrame } from './zstd-frames.js';

interface QueuedBatch {
  readonly events: readonly SessionEvent[];
  readonly resolve: (revision: string) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The single appender of one session file in this process, with group commit: a batch that
 * arrives while a write is in flight joins the next write (one frame, one fdatasync), while a
 * lone writer starts writing at once — no waiting window. A failed write truncates the file
 * back, so the stored log is exactly as before that group, and every batch queued behind it is
 * refused (their seqs assumed the failed events).
 */
export class LogWriter {
  readonly #queue: QueuedBatch[] = [];
  #writing: Promise<void> | undefined;
  /** Seq after every batch accepted so far (durable or queued). */
  #acceptedNext: number;
  #durableNext: number;
  #size: number;
  #closed = false;
  #broken = false;
  readonly #file: LogFile;
  readonly #compressed: boolean;
  readonly #fs: StorageFs;

  constructor(
    fs: StorageFs,
    readonly sessionId: string,
    readonly incarnation: string,
    file: LogFile,
    size: number,
    nextSeq: number,
    compressed: boolean,
    /** Event frames of the file; extended in place so readFrom's index stays current. */
    readonly frames: FrameLocation[],
  ) {
    this.#fs = fs;
    this.#file = file;
    this.#compressed = compressed;
    this.#size = size;
    this.#acceptedNext = nextSeq;
    this.#durableNext = nextSeq;
  }

  get size(): number {
    return this.#size;
  }

  get durableNext(): number {
    return this.#durableNext;
  }

  /**
   * True once a write failed. Its session stopped (a live `Session` refuses appends after a
   * failed write), so the owner drops this writer: the next append or repairing load opens the
   * file afresh, re-reading its size and dropping any tail the truncation could not remove.
   */
  get broken(): boolean {
    return this.#broken;
  }

  append(events: readonly SessionEvent[]): Promise<string> {
    if (this.#closed)
      return Promise.reject(
        new PersistenceError('PERSISTENCE_CLOSED', `writer of ${this.sessionId} is closed`, {
          sessionId: this.sessionId,
        }),
      );
    const first = events[0]?.seq;
    if (first !== this.#acceptedNext) {
      return Promise.reject(
        new PersistenceError(
          'PERSISTENCE_SEQ_CONFLICT',
          `session ${this.sessionId}: expected seq ${this.#acceptedNext}, got ${String(first)}`,
          {
            sessionId: this.sessionId,
          },
        ),
      );
    }
    for (let i = 1; i < events.length; i++) {
      if (events[i]!.seq !== first + i) {
        return Promise.reject(
          new PersistenceError(
            'PERSISTENCE_SEQ_CONFLICT',
            `session ${this.sessionId}: expected seq ${first + i}, got ${events[i]!.seq}`,
            {
              sessionId: this.sessionId,
            },
          ),
        );
      }
    }
    this.#acceptedNext += events.length;
    return new Promise<string>((resolve, reject) => {
      this.#queue.push({ events, resolve, reject });
      this.#writing ??= this.#drain();
    });
  }

  /** Resolves when everything accepted so far has been written (or refused). */
  async idle(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
  }

  async close(): Promise<void> {
    await this.idle();
    this.#closed = true;
    try {
      await this.#file.close();
    } catch (error) {
      throw storageError(error, this.sessionId);
    }
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const group = this.#queue.splice(0, this.#queue.length);
        try {
          const revision = await this.#writeGroup(group);
          for (const batch of group) batch.resolve(revision);
        } catch (error) {
          this.#broken = true;
          const rest = this.#queue.splice(0, this.#queue.length);
          this.#acceptedNext = this.#durableNext;
          const typed = storageError(error, this.sessionId);
          for (const batch of [...group, ...rest]) batch.reject(typed);
        }
      }
    } finally {
      this.#writing = undefined;
    }
  }

  async #writeGroup(group: readonly QueuedBatch[]): Promise<string> {
    const events = group.length === 1 ? group[0]!.events : group.flatMap((b) => b.events);
    const lines = encodeEventLines(events);
    const firstSeq = this.#durableNext;
    const bytes = this.#compressed ? encodeFrame(FrameKind.Events, firstSeq, events.length, lines) : lines;
    const before = this.#size;
    // Another process appending to the same file would change its size under us: refuse rather
    // than interleave two writers' events. Metadata calls and the page-cache write are sync (a
    // few µs each, no thread-pool hop); only the fdatasync waits off the event loop.
    const fs = this.#fs;
    const fd = this.#file.fd;
    const size = fs.fstatSync(fd).size;
    if (size !== before) {
      throw new PersistenceError(
        'PERSISTENCE_SEQ_CONFLICT',
        `session ${this.sessionId} was written by another writer (size ${size}, expected ${before})`,
        {
          sessionId: this.sessionId,
        },
      );
    }
    try {
      let written = 0;
      while (written < bytes.length)
        written += fs.writeSync(fd, bytes, written, bytes.length - written, before + written);
      await this.#file.datasync();
    } catch (error) {
      try {
        fs.ftruncateSync(fd, before);
      } catch {
        // If even truncation fails the torn bytes sit at the tail, where reads drop them.
      }
      throw new PersistenceError(
        'PERSISTENCE_IO',
        `durable write to session ${this.sessionId} failed${osCode(error)}`,
        { cause: error, sessionId: this.sessionId },
      );
    }
    this.#size = before + bytes.length;
    this.#durableNext = firstSeq + events.length;
    this.frames.push({ firstSeq, count: events.length, offset: before });
    const after = fs.fstatSync(fd, { bigint: true });
    return revisionOf(this.incarnation, after.size, after.mtimeNs);
  }
}

/** Opaque revision of a session file: changes with every write (size, mtime), never on reads. */
export function revisionOf(incarnation: string, size: bigint | number, mtimeNs: bigint): string {
  return `${incarnation}:${size}:${mtimeNs}`;
}
