import { fstatSync, ftruncateSync, promises as fsp, writeSync } from 'node:fs';

/**
 * The file-system calls the JSONL backend writes through: `node:fs/promises` (and the few sync
 * calls `LogWriter` makes on its descriptor), one seam so a test can make any of them fail as the
 * OS would (EACCES, EROFS, ENOSPC, EIO…) where chmod cannot (tests run as root). Reads go to
 * `node:fs` directly. Only `nodeStorageFs` is used outside tests.
 */
export interface StorageFs {
  readonly open: typeof fsp.open;
  readonly link: typeof fsp.link;
  readonly rename: typeof fsp.rename;
  readonly unlink: typeof fsp.unlink;
  readonly rm: typeof fsp.rm;
  readonly mkdir: typeof fsp.mkdir;
  readonly readdir: typeof fsp.readdir;
  readonly access: typeof fsp.access;
  readonly stat: typeof fsp.stat;
  readonly writeSync: typeof writeSync;
  readonly fstatSync: typeof fstatSync;
  readonly ftruncateSync: typeof ftruncateSync;
}

export const nodeStorageFs: StorageFs = {
  open: fsp.open,
  link: fsp.link,
  rename: fsp.rename,
  unlink: fsp.unlink,
  rm: fsp.rm,
  mkdir: fsp.mkdir,
  readdir: fsp.readdir,
  access: fsp.access,
  stat: fsp.stat,
  writeSync,
  fstatSync,
  ftruncateSync,
};
