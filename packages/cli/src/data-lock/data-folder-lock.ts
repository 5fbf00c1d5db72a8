import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataLockError } from './errors.js';
import {
  LOCK_FILE,
  TOKEN_FILE,
  describeHolder,
  readLockRecord,
  removeHolderFiles,
  writeLockRecord,
  writeTokenFile,
  type LockRecord,
} from './lock-record.js';
import { tryLockFile, unlockFile } from './os-file-lock.js';

/**
 * One writer per data folder (files and SQLite backends). Every process that writes a folder —
 * `serve`, `import`, `demo`, `doctor --repair`/`--rebuild-*`, later `acp` — holds this lock for as
 * long as it writes: two writers' appends would make each other's fail and wedge the sessions
 * they share. The kernel lock is the authority; the JSON record beside it only says who holds it.
 */
export interface DataFolderLock {
  readonly dataDir: string;
  readonly record: LockRecord;
  /** Tells read commands where the holding host listens; its token goes to a 0600 file. */
  announceHost(host: {
    readonly url: string;
    readonly rpcUrl: string;
    readonly token?: string;
  }): Promise<void>;
  /**
   * Stops pointing read commands at the host (it is about to stop listening) while the lock stays
   * held until the last write is flushed; meanwhile they read the disk.
   */
  withdrawHost(): Promise<void>;
  /** Removes the record and drops the lock. Idempotent. */
  release(): Promise<void>;
}

export interface AcquireOptions {
  /** The `strand` command taking the folder, named to whoever it refuses. */
  readonly command: string;
  /** What a refused command can do instead; appended to the one-line message. */
  readonly advice?: (holder: LockRecord | undefined) => string;
  /** Where the note about a taken-over lock goes (default: stderr). */
  readonly note?: (line: string) => void;
  /** Milliseconds since the epoch, for the record (injectable for tests). */
  readonly now?: () => number;
}

/**
 * Takes the folder for writing, before anything is written to it. Refused with
 * `CLI_DATA_FOLDER_LOCKED` naming the holder while another live process holds it; a lock whose
 * holder died (even by SIGKILL) is free at once — the kernel dropped it — and taking it over
 * prints a note, since that holder may have left a torn write or an open turn behind.
 */
export async function acquireDataFolderLock(
  dataDir: string,
  options: AcquireOptions,
): Promise<DataFolderLock> {
  const dir = path.resolve(dataDir);
  let handle: FileHandle;
  try {
    await mkdir(dir, { recursive: true });
    handle = await open(path.join(dir, LOCK_FILE), 'a+');
  } catch (error) {
    throw lockFailed(dir, error);
  }
  let locked: boolean;
  try {
    locked = await lockPatiently(handle.fd);
  } catch (error) {
    await handle.close();
    throw lockFailed(dir, error);
  }
  if (!locked) {
    await handle.close();
    const read = await readLockRecord(dir);
    const holder = read.kind === 'valid' ? read.record : undefined;
    throw new DataLockError(
      'CLI_DATA_FOLDER_LOCKED',
      `${dir} is in use by ${describeHolder(holder)}${options.advice?.(holder) ?? ''}`,
      holder,
    );
  }
  try {
    // A record left behind means its writer died holding the lock (a clean release removes it).
    const previous = await readLockRecord(dir);
    if (previous.kind !== 'absent')
      (options.note ?? ((line) => console.error(line)))(
        `strand: took over the lock on ${dir} from ${
          previous.kind === 'valid' ? describeHolder(previous.record) : 'a process (unreadable record)'
        }, which is no longer running`,
      );
    await removeHolderFiles(dir);
    const base: LockRecord = {
      version: 1,
      command: options.command,
      pid: process.pid,
      startedAt: (options.now ?? Date.now)(),
    };
    await writeLockRecord(dir, base);
    return heldLock(dir, handle, base);
  } catch (error) {
    unlockFile(handle.fd);
    await handle.close();
    throw lockFailed(dir, error);
  }
}

function heldLock(dir: string, handle: FileHandle, base: LockRecord): DataFolderLock {
  let record = base;
  let released = false;
  return {
    dataDir: dir,
    get record() {
      return record;
    },
    async announceHost(host) {
      if (host.token !== undefined) await writeTokenFile(dir, host.token);
      record = {
        ...base,
        host: {
          url: host.url,
          rpcUrl: host.rpcUrl,
          ...(host.token === undefined ? {} : { tokenFile: TOKEN_FILE }),
        },
      };
      await writeLockRecord(dir, record);
    },
    async withdrawHost() {
      record = base;
      await writeLockRecord(dir, record);
      await rm(path.join(dir, TOKEN_FILE), { force: true });
    },
    async release() {
      if (released) return;
      released = true;
      try {
        await removeHolderFiles(dir);
      } finally {
        unlockFile(handle.fd);
        await handle.close();
      }
    },
  };
}

/**
 * A read command's probe (`findDataFolderHolder`) holds a shared lock for the instant between two
 * system calls; a writer that meets one tries again briefly instead of refusing. A real holder
 * keeps its lock, so this only delays a refusal by at most `PROBE_PATIENCE_MS`.
 */
const PROBE_PATIENCE_MS = 200;
const PROBE_RETRY_MS = 5;

async function lockPatiently(fd: number): Promise<boolean> {
  for (let waited = 0; ; waited += PROBE_RETRY_MS) {
    if (tryLockFile(fd, 'exclusive')) return true;
    if (waited >= PROBE_PATIENCE_MS) return false;
    await sleep(PROBE_RETRY_MS);
  }
}

function lockFailed(dir: string, cause: unknown): DataLockError {
  return new DataLockError(
    'CLI_DATA_FOLDER_LOCK_FAILED',
    `cannot lock ${dir}: ${cause instanceof Error ? cause.message : String(cause)}`,
    undefined,
    { cause },
  );
}
