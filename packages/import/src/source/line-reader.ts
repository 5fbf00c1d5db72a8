import { defined } from '@strand/session';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { DecompressStream } from 'zstd-napi';
import { fileChunks } from './file-chunks.js';

export interface SourceLine {
  /** The line without its terminator (`\n` or `\r\n`). */
  readonly text: string;
  /** 1-based line number in the (decompressed) file. */
  readonly line: number;
  /** False only for a final line with no newline after it: possibly torn. */
  readonly terminated: boolean;
}

/** How a read ended; set once the line iterator is exhausted. */
export interface LineReadEnd {
  /** Hex digest of the raw (compressed, for `.zst`) bytes read. */
  readonly hash: string;
  readonly bytes: number;
  /**
   * `truncated`: the zstd stream ended inside a frame (a rollout still being written, or a cut
   * copy); the lines before the cut were delivered. `corrupt`: zstd refused the data.
   */
  readonly zstd: 'ok' | 'truncated' | 'corrupt';
  readonly zstdError?: string;
}

// zstd-napi's streaming decoder reports a stream that stops mid-frame with this message from its
// flush; every other error comes from libzstd itself (bad magic, checksum, corrupt block).
const ZSTD_TRUNCATED = 'Stream ended in middle of compressed data frame';

/**
 * What a peek reads at a time. A peek stops at its first records, and most transcript files are
 * far smaller than a megabyte: read a megabyte at a time, a peek read, hashed and buffered the
 * whole of a typical file (aider's average history is ~150 kB), as much as its mapping does.
 */
export const PEEK_CHUNK_BYTES = 64 * 1024;

/**
 * Streams the lines of a transcript, plain or zstd-compressed, hashing the raw bytes on the way.
 *
 * Compressed files go through the *streaming* decoder on purpose: zstd-napi's one-shot
 * `decompress()` returns partial output for a truncated input without saying so, which would
 * import a cut rollout as if it were whole.
 */
export class SourceLineReader {
  #end: LineReadEnd | undefined;

  constructor(
    readonly file: string,
    readonly compressed: boolean,
    /** Bytes read at a time: a megabyte for a reader of the whole file, less for a peek. */
    readonly chunkBytes = 1 << 20,
  ) {}

  /** Available after `lines()` finished; undefined while reading or after an early `break`. */
  get end(): LineReadEnd | undefined {
    return this.#end;
  }

  /**
   * The lines one at a time, each decoded only when it is asked for: a peek stops after its first
   * records, and decoding the rest of its chunk (a thousand lines of a Markdown history) would cost
   * more than the peek itself.
   */
  async *lines(): AsyncGenerator<SourceLine> {
    for await (const lines of this.#chunks((splitter, chunk) => splitter.pushLazily(chunk))) yield* lines;
  }

  /**
   * The lines chunk by chunk (a chunk is up to a megabyte of the file): each iterable must be
   * consumed before the next is asked for. For a reader of every line (a whole-file mapping), this
   * saves `lines()`'s asynchronous step per line, which costs more than a short line's mapping
   * (aider's Markdown history is mostly lines of a few dozen bytes).
   */
  chunkLines(): AsyncGenerator<Iterable<SourceLine>> {
    return this.#chunks((splitter, chunk) => splitter.push(chunk));
  }

  async *#chunks(
    split: (splitter: LineSplitter, chunk: Buffer) => Iterable<SourceLine>,
  ): AsyncGenerator<Iterable<SourceLine>> {
    const hash = createHash('sha1');
    const read = { bytes: 0 };
    const splitter = new LineSplitter();
    if (!this.compressed) {
      for await (const chunk of fileChunks(this.file, this.chunkBytes)) {
        read.bytes += chunk.length;
        yield split(splitter, chunk);
        // Hashed once its lines were taken, before the next read reuses its memory: a reader that
        // stops early (a peek, after its first records) never asks for the digest, so it hashes
        // nothing.
        hash.update(chunk);
      }
      const last = splitter.finish();
      if (last !== undefined) yield [last];
      this.#end = { hash: hash.digest('hex'), bytes: read.bytes, zstd: 'ok' };
      return;
    }
    const source = createReadStream(this.file, { highWaterMark: this.chunkBytes });
    const decoder = new DecompressStream();
    source.on('data', (chunk: string | Buffer) => {
      hash.update(chunk);
      read.bytes += chunk.length;
    });
    source.on('error', (error) => decoder.destroy(error));
    source.pipe(decoder);
    let zstd: LineReadEnd['zstd'] = 'ok';
    let zstdError: string | undefined;
    try {
      try {
        for await (const chunk of decoder as AsyncIterable<Buffer>) {
          yield split(splitter, chunk);
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== undefined) throw error;
        const message = error instanceof Error ? error.message : String(error);
        zstd = message.includes(ZSTD_TRUNCATED) ? 'truncated' : 'corrupt';
        zstdError = message;
      }
      // A cut zstd stream leaves half a line behind: it is torn whatever it looks like.
      const last = splitter.finish();
      if (last !== undefined && zstd === 'ok') yield [last];
      this.#end = {
        hash: hash.digest('hex'),
        bytes: read.bytes,
        zstd,
        ...defined({ zstdError }),
      };
    } finally {
      source.destroy();
      decoder.destroy();
    }
  }
}

/**
 * Splits byte chunks into lines. A line spanning chunks is kept as a list of parts and joined
 * once, so a multi-megabyte line (spilled tool output, base instructions) costs one copy.
 */
export class LineSplitter {
  #parts: Buffer[] = [];
  #line: number;

  /** `linesBefore`: lines of the file ahead of the first byte pushed (a read from an offset). */
  constructor(linesBefore = 0) {
    this.#line = linesBefore;
  }

  /**
   * The lines `chunk` completes, in order (the rest of it waits for its newline). A line within
   * the chunk is decoded straight from it, with no view of it made first: most lines of a
   * Markdown history are a few dozen bytes, where a view per line is a large part of their cost.
   */
  push(chunk: Buffer): SourceLine[] {
    const out: SourceLine[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      out.push({ text: this.#text(chunk, start, nl), line: ++this.#line, terminated: true });
      start = nl + 1;
    }
    this.#keep(chunk, start);
    return out;
  }

  /**
   * `push`, one line at a time: a line is decoded only when it is asked for. It must be run to its
   * end before the next chunk is pushed (the remainder is kept then); a reader that stops early
   * pushes nothing more.
   */
  *pushLazily(chunk: Buffer): Generator<SourceLine> {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      const text = this.#text(chunk, start, nl);
      start = nl + 1;
      yield { text, line: ++this.#line, terminated: true };
    }
    this.#keep(chunk, start);
  }

  /** The line ending at `nl` (the newline's offset), joined with the parts kept before it. */
  #text(chunk: Buffer, start: number, nl: number): string {
    if (this.#parts.length === 0) {
      const end = nl > start && chunk[nl - 1] === 13 ? nl - 1 : nl;
      return chunk.toString('utf8', start, end);
    }
    this.#parts.push(chunk.subarray(start, nl));
    const bytes = Buffer.concat(this.#parts);
    this.#parts = [];
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
    return bytes.toString('utf8', 0, end);
  }

  /** Copies the remainder: the reader reuses the chunk's memory for its next read. */
  #keep(chunk: Buffer, start: number): void {
    if (start < chunk.length) this.#parts.push(Buffer.from(chunk.subarray(start)));
  }

  /** The unterminated final line, if any. */
  finish(): SourceLine | undefined {
    if (this.#parts.length === 0) return undefined;
    const text = Buffer.concat(this.#parts).toString('utf8');
    this.#parts = [];
    this.#line++;
    return { text, line: this.#line, terminated: false };
  }
}
