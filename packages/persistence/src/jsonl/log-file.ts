import type { StorageFs } from './storage-fs.js';

/**
 * What a `LogWriter` needs of its open log: the descriptor it writes through (synchronously), a
 * durable sync of what was written, and a close. A `FileHandle` is one (a log reopened to append
 * to); `descriptorLogFile` makes one of a descriptor opened synchronously (a log just created).
 */
export interface LogFile {
  readonly fd: number;
  datasync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A descriptor as a `LogFile`: its sync goes through `fs` (one thread-pool round trip, the one wait
 * of a write), its close is synchronous (no wait: the data was synced). A second close does nothing,
 * so a descriptor number the OS has handed out again is never closed by mistake.
 */
export function descriptorLogFile(fs: StorageFs, fd: number): LogFile {
  let open = true;
  return {
    fd,
    datasync: () => fs.fdatasync(fd),
    // Async so a failed close rejects, as a handle's does, rather than throwing at the caller.
    // eslint-disable-next-line @typescript-eslint/require-await
    close: async () => {
      if (!open) return;
      open = false;
      fs.closeSync(fd);
    },
  };
}
