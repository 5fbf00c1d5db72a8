import {
  closeSync,
  fdatasync,
  fstatSync,
  fsync,
  ftruncateSync,
  linkSync,
  openSync,
  promises as fsp,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { promisify } from 'node:util';

/**
 * The file-system calls the JSONL backend writes through: `node:fs/promises`, and the sync calls
 * that cost microseconds where a promise costs a thread-pool round trip (~20 µs of CPU and two
 * context switches, far more on a virtual machine): `LogWriter`'s writes on its descriptor, a new
 * log's open, first write, link and close, its temp file's unlink, the lookup of a log's name,
 * and a folder's open and close around its fsync. Only a sync waits for the disk, so only syncs stay asynchronous (a descriptor's through
 * `fsync`/`fdatasync`, a handle's through its own methods). One seam so a test can make any of
 * them fail as the OS would (EACCES, EROFS, ENOSPC, EIO…) where chmod cannot (tests run as root).
 * Reads go to `node:fs` directly. Only `nodeStorageFs` is used outside tests.
 */
export interface StorageFs {
  readonly open: typeof fsp.open;
  readonly rename: typeof fsp.rename;
  readonly unlink: typeof fsp.unlink;
  readonly rm: typeof fsp.rm;
  readonly mkdir: typeof fsp.mkdir;
  readonly readdir: typeof fsp.readdir;
  readonly access: typeof fsp.access;
  readonly stat: typeof fsp.stat;
  readonly statSync: typeof statSync;
  readonly linkSync: typeof linkSync;
  readonly unlinkSync: typeof unlinkSync;
  readonly writeSync: typeof writeSync;
  readonly fstatSync: typeof fstatSync;
  readonly ftruncateSync: typeof ftruncateSync;
  readonly openSync: typeof openSync;
  readonly closeSync: typeof closeSync;
  /** fsync of a descriptor: one thread-pool round trip. */
  readonly fsync: (fd: number) => Promise<void>;
  /** fdatasync of a descriptor: one thread-pool round trip. */
  readonly fdatasync: (fd: number) => Promise<void>;
}

export const nodeStorageFs: StorageFs = {
  open: fsp.open,
  rename: fsp.rename,
  unlink: fsp.unlink,
  rm: fsp.rm,
  mkdir: fsp.mkdir,
  readdir: fsp.readdir,
  access: fsp.access,
  stat: fsp.stat,
  statSync,
  linkSync,
  unlinkSync,
  writeSync,
  fstatSync,
  ftruncateSync,
  openSync,
  closeSync,
  fsync: promisify(fsync),
  fdatasync: promisify(fdatasync),
};
