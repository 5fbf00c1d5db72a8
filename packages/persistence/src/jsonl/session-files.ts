import path from 'node:path';
import { escapeSessionId, unescapeSessionId } from './file-names.js';
import { storageError, storeError } from './storage-error.js';
import { nodeStorageFs, type StorageFs } from './storage-fs.js';

/** A stored session's log file and which of the two formats it is in. */
export interface Located {
  readonly file: string;
  readonly compressed: boolean;
}

const EXT_ZST = '.zst';
const EXT_PLAIN = '.jsonl';
const FOLDERS = ['sessions', 'index', 'attachments', 'tmp'] as const;

/**
 * Where everything of a JSONL store lives under its root: `sessions/` (the logs, the only
 * authority), `index/` (derived frame indexes), `attachments/`, and `tmp/` (temp files of atomic
 * writes, never linked anywhere until complete). Nothing is ever written outside the root: every
 * name below it comes from `escapeSessionId`. `fs` is what every write goes through.
 */
export class SessionFiles {
  readonly sessionsDir: string;
  readonly indexDir: string;
  readonly attachmentsDir: string;
  readonly tmpDir: string;
  readonly fs: StorageFs;
  readonly #root: string;

  constructor(root: string, fs: StorageFs = nodeStorageFs) {
    this.#root = root;
    this.fs = fs;
    this.sessionsDir = path.join(root, 'sessions');
    this.indexDir = path.join(root, 'index');
    this.attachmentsDir = path.join(root, 'attachments');
    this.tmpDir = path.join(root, 'tmp');
  }

  /**
   * Creates the folders; with `sweepTemp`, deletes temp files of interrupted atomic writes. Only
   * the process that writes the folder may sweep: another writer's temp files are in flight.
   * A storage failure is `PERSISTENCE_IO`.
   */
  async prepare(sweepTemp: boolean): Promise<void> {
    try {
      for (const dir of FOLDERS) await this.fs.mkdir(path.join(this.#root, dir), { recursive: true });
      if (sweepTemp)
        for (const name of await this.fs.readdir(this.tmpDir))
          await this.fs.rm(path.join(this.tmpDir, name), { force: true });
    } catch (error) {
      throw storeError(error, 'opening the session store');
    }
  }

  /** The log file a new session of `escaped` id gets in the store's write format. */
  logFile(escaped: string, compressed: boolean): string {
    return path.join(this.sessionsDir, escaped + (compressed ? EXT_ZST : EXT_PLAIN));
  }

  /** The derived frame index beside a session's `.zst` log. */
  indexFile(escaped: string): string {
    return path.join(this.indexDir, escaped + '.idx');
  }

  /**
   * The stored log of `id` in either format (`.zst` first), or undefined when there is none. A
   * storage failure other than a missing name is `PERSISTENCE_IO`, never taken for "not stored".
   */
  locate(id: string, escaped = escapeSessionId(id)): Promise<Located | undefined> {
    // A name lookup, synchronously: microseconds, and a missing name is no exception (an import
    // looks up every session it creates, and both names of each are missing).
    for (const compressed of [true, false]) {
      const file = this.logFile(escaped, compressed);
      let found;
      try {
        found = this.fs.statSync(file, { throwIfNoEntry: false });
      } catch (error) {
        return Promise.reject(storageError(error, id));
      }
      if (found !== undefined) return Promise.resolve({ file, compressed });
    }
    return Promise.resolve(undefined);
  }

  /** The session a name in `sessions/` belongs to; undefined for a name no id escapes to. */
  sessionOf(name: string): { readonly id: string; readonly located: Located } | undefined {
    const compressed = name.endsWith(EXT_ZST);
    if (!compressed && !name.endsWith(EXT_PLAIN)) return undefined;
    const id = unescapeSessionId(name.slice(0, -(compressed ? EXT_ZST : EXT_PLAIN).length));
    if (id === undefined) return undefined;
    return { id, located: { file: path.join(this.sessionsDir, name), compressed } };
  }
}
