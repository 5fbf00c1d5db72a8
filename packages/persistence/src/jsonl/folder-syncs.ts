import type { StorageFs } from './storage-fs.js';

/**
 * Group commit for folder fsyncs. A new (or removed) name is durable once an fsync of its folder
 * that *started after* the name changed has completed; any such fsync serves every name changed
 * before it started. So a caller that arrives while a folder's fsync is in flight joins the next
 * one (started as soon as the current one ends), and a lone caller starts one at once — no
 * waiting window, as `LogWriter` groups a session's appends. N session files created at once then
 * cost their N file syncs (in parallel) and one or two folder syncs, not N.
 *
 * Each caller still resolves only after a sync covering its own change: never after one that was
 * already under way when it asked. A failed sync fails every caller that joined it (none of their
 * names is known durable); the next caller starts afresh.
 */
class FolderSync {
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  constructor(
    private readonly fs: StorageFs,
    private readonly dir: string,
    private readonly onIdle: () => void,
  ) {}

  sync(): Promise<void> {
    if (this.#running === undefined && this.#next === undefined) return this.#start();
    const settled = this.#running ?? Promise.resolve();
    this.#next ??= settled.then(ignore, ignore).then(() => {
      this.#next = undefined;
      return this.#start();
    });
    return this.#next;
  }

  #start(): Promise<void> {
    const sync = fsyncFolderNow(this.fs, this.dir);
    this.#running = sync;
    const settle = (): void => {
      if (this.#running !== sync) return;
      this.#running = undefined;
      if (this.#next === undefined) this.onIdle();
    };
    sync.then(settle, settle);
    return sync;
  }
}

function ignore(): void {
  // A failed sync fails its own callers; the next group starts regardless.
}

/**
 * fsync of `dir`, now: what every group runs once. The folder is opened and closed synchronously
 * (a lookup and a release, microseconds) so that only the sync itself, which waits for the disk,
 * costs a thread-pool round trip — the import runs one of these per source file.
 */
async function fsyncFolderNow(fs: StorageFs, dir: string): Promise<void> {
  const fd = fs.openSync(dir, 'r');
  try {
    await fs.fsync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The groups of this process, per file system seam and folder: process-wide, because the import
 * opens one short-lived persistence per source file and their creations share the session folder.
 * A folder's group is forgotten once idle (attachment folders are one per session).
 */
const groups = new WeakMap<StorageFs, Map<string, FolderSync>>();

/** Makes the names changed in `dir` so far durable, sharing the fsync with concurrent callers. */
export function syncFolder(fs: StorageFs, dir: string): Promise<void> {
  let folders = groups.get(fs);
  if (folders === undefined) {
    folders = new Map();
    groups.set(fs, folders);
  }
  let group = folders.get(dir);
  if (group === undefined) {
    const created = new FolderSync(fs, dir, () => {
      if (folders.get(dir) === created) folders.delete(dir);
    });
    group = created;
    folders.set(dir, group);
  }
  return group.sync();
}
