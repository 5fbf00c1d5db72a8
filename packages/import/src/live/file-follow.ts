import { createHash, type Hash } from 'node:crypto';
import { createReadStream, promises as fsp, type Stats } from 'node:fs';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import type { TranscriptFold } from '../mapping/transcript-fold.js';
import { LineSplitter } from '../source/line-reader.js';

/**
 * Bytes kept of the start of a file and of the end of what was consumed, to tell a file that grew
 * from one rewritten since the last read (see `FileFollow.continues`).
 */
export const CHECK_BYTES = 4096;

/** Counts of one read of a watched file, for tests and benches (`LiveIngestOptions.onRead`). */
export interface FileRead {
  readonly file: string;
  /** `whole`: read from its first byte with a fresh mapping; `appended`: only what it grew by. */
  readonly mode: 'whole' | 'appended';
  /** Bytes read from the file, the rewrite check included. */
  readonly bytes: number;
  /** Complete lines fed to the mapping. */
  readonly lines: number;
}

/** What was written for one session of the file: how far its plan got, and what must not change. */
interface Written {
  /** Events of the plan's own (`plan.events`) that are stored. */
  own: number;
  /** Events a fork inherited from its parent, ahead of its own. */
  readonly inherited: number;
  readonly header: string;
  readonly first: string;
  readonly attachments: Set<string>;
}

/**
 * Live ingest's state of one watched transcript between reads: the mapping's fold, the byte
 * offset just past the last complete line it consumed, the digest of those bytes, and per session
 * the events written. A read feeds the fold only the complete lines appended since; the prefix
 * law makes the new events of each plan exactly the suffix past what was written.
 */
export class FileFollow {
  readonly #file: string;
  readonly #fold: TranscriptFold;
  #offset = 0;
  #lines = 0;
  #hash: Hash = createHash('sha1');
  #ino: number | undefined;
  #head: Buffer = Buffer.alloc(0);
  #tail: Buffer = Buffer.alloc(0);
  readonly #written = new Map<string, Written>();

  constructor(file: string, fold: TranscriptFold) {
    this.#file = file;
    this.#fold = fold;
  }

  /** Bytes consumed: the file's complete lines, up to and including the last newline read. */
  get offset(): number {
    return this.#offset;
  }

  /** SHA-1 of the consumed bytes (what the ledger keeps for a file of exactly `offset` bytes). */
  get digest(): string {
    return this.#hash.copy().digest('hex');
  }

  /**
   * True when the file still starts with what was consumed, so what follows `offset` is an
   * extension: same inode (an atomic rewrite renames a new file in), not shorter, and the first
   * and last {@link CHECK_BYTES} consumed bytes unchanged. Reading two small windows keeps the
   * check cheap for any size; a rewrite that keeps both windows and changes only bytes between
   * them is not seen (no harness rewrites a transcript so).
   */
  async continues(stat: Stats, count: (bytes: number) => void): Promise<boolean> {
    if (stat.ino !== this.#ino || stat.size < this.#offset) return false;
    if (this.#offset === 0) return true;
    const handle = await fsp.open(this.#file, 'r');
    try {
      const head = await readAt(handle, this.#head.length, 0);
      count(head.length);
      if (!head.equals(this.#head)) return false;
      const tail = await readAt(handle, this.#tail.length, this.#offset - this.#tail.length);
      count(tail.length);
      return tail.equals(this.#tail);
    } finally {
      await handle.close();
    }
  }

  /**
   * Feeds the fold the complete lines between `offset` and `size` (a partial last line waits for
   * its newline) and returns what the file maps to now.
   */
  async read(stat: Stats, mode: FileRead['mode'], onRead: (read: FileRead) => void): Promise<MappedFile> {
    this.#ino = stat.ino;
    let bytes = 0;
    let lines = 0;
    if (stat.size > this.#offset) {
      const splitter = new LineSplitter(this.#lines);
      /** Bytes read after the last newline: consumed once their newline arrives. */
      let partial: Buffer[] = [];
      const stream = createReadStream(this.#file, {
        start: this.#offset,
        end: stat.size - 1,
        highWaterMark: 1 << 20,
      });
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        for (const line of splitter.push(chunk)) {
          await this.#fold.feed(line);
          lines++;
        }
        const nl = chunk.lastIndexOf(10);
        if (nl < 0) {
          partial.push(Buffer.from(chunk));
          continue;
        }
        for (const part of partial) this.#consume(part);
        this.#consume(chunk.subarray(0, nl + 1));
        partial = [Buffer.from(chunk.subarray(nl + 1))];
      }
      this.#lines += lines;
    }
    onRead({ file: this.#file, mode, bytes, lines });
    return this.#fold.result({ hash: this.digest, bytes: this.#offset, zstd: 'ok' });
  }

  /**
   * The events of `plan` not written yet, or undefined when they cannot simply be appended: the
   * session was not written from this follow, or what was written of it would differ now (its
   * header or first event — a label learned from a companion file — changed).
   */
  suffixOf(plan: SessionPlan): SessionPlan['events'] | undefined {
    const written = this.#written.get(plan.header.id);
    if (written === undefined) return undefined;
    if (JSON.stringify(plan.header) !== written.header) return undefined;
    if (JSON.stringify(plan.events[0]) !== written.first) return undefined;
    return plan.events.slice(written.own);
  }

  /** Attachments of `plan` not stored yet. */
  newAttachments(plan: SessionPlan): SessionPlan['attachments'] {
    const known = this.#written.get(plan.header.id)?.attachments;
    if (known === undefined) return plan.attachments;
    return new Map([...plan.attachments].filter(([key]) => !known.has(key)));
  }

  /**
   * Records `plan` as stored in full, after `inherited` events a fork took from its parent. `appendable` false (a fork written unseeded) keeps it out: its next read goes
   * through the whole comparison, which seeds it once its parent is stored.
   */
  wrote(plan: SessionPlan, inherited: number, appendable = true): void {
    if (!appendable) {
      this.#written.delete(plan.header.id);
      return;
    }
    this.#written.set(plan.header.id, {
      own: plan.events.length,
      inherited,
      header: JSON.stringify(plan.header),
      first: JSON.stringify(plan.events[0]),
      attachments: new Set(plan.attachments.keys()),
    });
  }

  /** Events a session written from this follow inherited from its parent (0 unless a fork). */
  inheritedOf(id: string): number {
    return this.#written.get(id)?.inherited ?? 0;
  }

  #consume(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.#hash.update(bytes);
    this.#offset += bytes.length;
    if (this.#head.length < CHECK_BYTES)
      this.#head = Buffer.concat([this.#head, bytes.subarray(0, CHECK_BYTES - this.#head.length)]);
    const recent = bytes.length >= CHECK_BYTES ? bytes.subarray(bytes.length - CHECK_BYTES) : bytes;
    const joined = this.#tail.length === 0 ? Buffer.from(recent) : Buffer.concat([this.#tail, recent]);
    this.#tail = joined.length > CHECK_BYTES ? joined.subarray(joined.length - CHECK_BYTES) : joined;
  }
}

async function readAt(handle: fsp.FileHandle, length: number, position: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await handle.read(buffer, read, length - read, position + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return buffer.subarray(0, read);
}
