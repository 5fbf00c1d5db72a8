// The package ships CommonJS with prebuilt binaries and no type declarations (./fs-native-extensions.d.ts).
import fsNative from 'fs-native-extensions';

/**
 * The kernel's file lock on an open file: on Linux an open-file-description lock (`F_OFD_SETLK`),
 * flock elsewhere, through `fs-native-extensions`. The kernel drops it when the descriptor is
 * closed or the process dies — SIGKILL included — so a dead holder can never keep a data folder
 * locked, with no staleness timeout to tune. Two descriptors conflict even in one process.
 */
interface NativeLocks {
  tryLock(fd: number, options: { shared: boolean }): boolean;
  unlock(fd: number): void;
}

// A static import, so the bundle names it among its dependencies (an installed @strand/cli needs it).
const native = fsNative as NativeLocks;

/** Takes the lock without waiting: `false` when another descriptor holds a conflicting one. */
export function tryLockFile(fd: number, mode: 'exclusive' | 'shared'): boolean {
  return native.tryLock(fd, { shared: mode === 'shared' });
}

export function unlockFile(fd: number): void {
  native.unlock(fd);
}
