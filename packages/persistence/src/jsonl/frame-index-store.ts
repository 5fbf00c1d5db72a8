import { promises as fsp } from 'node:fs';
import { PersistenceError } from '../errors.js';
import { escapeSessionId } from './file-names.js';
import { decodeFrameIndex, encodeFrameIndex, type FrameIndex } from './frame-index.js';
import { replaceFileAtomically } from './fs-util.js';
import type { SessionFiles } from './session-files.js';

/** Frame tables are a few KB each, but a host may touch thousands of sessions. */
const MEMORY_ENTRIES = 256;

/**
 * Frame indexes of `.zst` logs: a small LRU in memory, backed by the sidecar files in `index/`.
 *
 * The one rule for "the index read failed": an index is derived data, so an index that is
 * missing (`ENOENT`) or decodes to nothing trustworthy (bad magic, wrong length, and — checked by
 * the tail read — another incarnation, a longer file, a meta frame that disagrees) is *absent*:
 * the caller reads the whole log and rebuilds it. A failing storage is not absence: any other
 * I/O error reading the sidecar is `PERSISTENCE_IO`, as it would be for the log itself, never
 * mistaken for damage and never silently turned into a full read. Saving is best effort: a failed
 * save only costs a rebuild later.
 */
export class FrameIndexStore {
  readonly #files: SessionFiles;
  readonly #memory = new Map<string, FrameIndex>();

  constructor(files: SessionFiles) {
    this.#files = files;
  }

  /** Keeps an index learned from a read or a write (most recent last). */
  remember(id: string, index: FrameIndex): void {
    this.#memory.delete(id);
    this.#memory.set(id, index);
    if (this.#memory.size > MEMORY_ENTRIES) this.#memory.delete(this.#memory.keys().next().value!);
  }

  /** The index of `id` from memory, else its sidecar file; undefined when absent (see above). */
  async find(id: string): Promise<FrameIndex | undefined> {
    const known = this.#memory.get(id);
    if (known !== undefined) return known;
    let bytes: Buffer;
    try {
      bytes = await fsp.readFile(this.#files.indexFile(escapeSessionId(id)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new PersistenceError('PERSISTENCE_IO', `could not read the frame index of session ${id}`, {
        cause: error,
        sessionId: id,
      });
    }
    return decodeFrameIndex(bytes);
  }

  /**
   * Remembers `index` and writes its sidecar atomically; never fails (see the class comment).
   * An index of at most one events frame is not written: reading such a log whole reads that one
   * frame, as a tail read through the index would. Most imported sessions are one frame (one
   * batch), and the sidecar's atomic write (two fsyncs) cost about as much as creating the log.
   */
  async save(id: string, index: FrameIndex): Promise<void> {
    this.remember(id, index);
    if (index.frames.length <= 1) return;
    await replaceFileAtomically(
      this.#files.fs,
      this.#files.tmpDir,
      this.#files.indexFile(escapeSessionId(id)),
      encodeFrameIndex(index),
    ).catch(() => {
      // Derived data: a failed save only costs a rebuild later.
    });
  }

  /** Drops the index of a deleted session, in memory and on disk. */
  async remove(id: string, escaped: string): Promise<void> {
    this.#memory.delete(id);
    await this.#files.fs.rm(this.#files.indexFile(escaped), { force: true });
  }
}
