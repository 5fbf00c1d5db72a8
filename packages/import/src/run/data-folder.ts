import path from 'node:path';
import { JsonlSessionPersistence, openJsonlPersistence } from '@strand/persistence';
import type { WriteTarget } from '../write/write-plan.js';

/**
 * The Strand data folder as the import writes it: the set of stored ids, read once, and a
 * short-lived persistence per source file.
 *
 * Per file, not per run: the JSONL backend keeps every log it wrote open until it is closed, and
 * closing writes each log's frame index (two fsyncs per session). One long-lived instance would
 * hold thousands of open files and pay every index write in one serial burst at the end; an
 * instance per file closes its few logs while other files are still being mapped, so those
 * fsyncs overlap with work. Instances never share a session: each session id belongs to one file.
 */
export class DataFolder {
  readonly stored: Set<string>;
  #prepared: boolean;

  constructor(
    readonly root: string,
    readonly compression: 'zstd' | 'none',
    /** Ids known stored (a worker lane gets them from the coordinating thread). */
    known?: Iterable<string>,
  ) {
    this.root = path.resolve(root);
    this.stored = new Set(known);
    this.#prepared = known !== undefined;
  }

  /**
   * Creates the folders, sweeps `tmp/` of interrupted writes and lists the stored ids. Must run
   * before any lane writes: the sweep would delete the temp files of writes in flight.
   */
  async prepare(): Promise<void> {
    if (this.#prepared) return;
    const persistence = await openJsonlPersistence({ root: this.root, compression: this.compression });
    try {
      for (const summary of await persistence.list()) this.stored.add(summary.header.id);
    } finally {
      await persistence.close();
    }
    this.#prepared = true;
  }

  /**
   * Runs `work` against a persistence of its own, closed after it. The sessions it created are
   * durable only once this resolves (the close fsyncs their folder); if the close fails they are
   * removed, and this rejects.
   */
  async write<T>(work: (target: WriteTarget) => Promise<T>): Promise<T> {
    await this.prepare();
    // New sessions' names are made durable once per file, when the persistence closes (one
    // folder fsync, not one per session): `work`'s sessions are reported only after that.
    const persistence = new JsonlSessionPersistence(this.root, {
      root: this.root,
      compression: this.compression,
      syncNewNamesOnClose: true,
    });
    try {
      return await work({ persistence, stored: this.stored });
    } finally {
      await persistence.close();
    }
  }
}
