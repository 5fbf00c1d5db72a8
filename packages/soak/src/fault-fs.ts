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
import type { FileHandle } from 'node:fs/promises';
import type { JsonlPersistenceOptions } from '@strand/persistence';

type StorageFs = NonNullable<JsonlPersistenceOptions['fs']>;

/**
 * The storage faults the soak injects, as the OS reports them:
 * - `write`: the write fails (`EIO`), nothing of it reaches the file;
 * - `sync`: the write lands in the page cache, then its fdatasync fails (`EIO`);
 * - `enospc`: the disk fills in the middle of the write — part of the frame is written, then `ENOSPC`.
 */
export type StorageFaultKind = 'write' | 'sync' | 'enospc';
export const STORAGE_FAULT_KINDS: readonly StorageFaultKind[] = ['write', 'sync', 'enospc'];

/** One scheduled fault: it strikes the `at`-th log write (counted from 1) of the process. */
export interface ScheduledFault {
  readonly kind: StorageFaultKind;
  readonly at: number;
}

function osError(code: 'EIO' | 'ENOSPC', syscall: string, at: number): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected by the soak (log write #${at}), ${syscall}`), {
    code,
    syscall,
    errno: code === 'EIO' ? -5 : -28,
  });
}

/**
 * `node:fs` as the JSONL backend writes through it (its `StorageFs` seam), with `schedule`'s faults
 * injected at the log writes they name. A log write is one `writeSync` call starting a frame; the
 * sync fault fails the next `datasync`/`sync` after that write, on any handle this fs opened or
 * any descriptor it syncs.
 * `onFault` hears each fault as it strikes.
 */
export function faultInjectingFs(
  schedule: readonly ScheduledFault[],
  onFault: (fault: ScheduledFault) => void = () => undefined,
): StorageFs {
  const byOrdinal = new Map(schedule.map((fault) => [fault.at, fault]));
  let writes = 0;
  /** A sync fault armed by its write, waiting for the write's fdatasync. */
  let syncArmed: ScheduledFault | undefined;
  /** The ENOSPC of a write that was cut short: its next writeSync call fails. */
  let diskFull: ScheduledFault | undefined;
  /**
   * Descriptors of new logs still being written whole (opened, not yet synced): the soak faults
   * appends, not a log's creation, so their writes are not log writes here. Their sync is, as a
   * handle's was: an armed sync fault fails it.
   */
  const creating = new Set<number>();

  const write: typeof writeSync = ((fd: number, buffer: NodeJS.ArrayBufferView, ...rest: unknown[]) => {
    const [offset, length, position] = rest as [number, number, number];
    if (creating.has(fd)) return writeSync(fd, buffer, offset, length, position);
    if (diskFull !== undefined) {
      const fault = diskFull;
      diskFull = undefined;
      throw osError('ENOSPC', 'write', fault.at);
    }
    const fault = byOrdinal.get(++writes);
    if (fault === undefined) return writeSync(fd, buffer, offset, length, position);
    switch (fault.kind) {
      case 'write':
        onFault(fault);
        throw osError('EIO', 'write', fault.at);
      case 'sync':
        syncArmed = fault;
        return writeSync(fd, buffer, offset, length, position);
      case 'enospc': {
        onFault(fault);
        // Half the frame reaches the file; the loop's next call meets the full disk.
        const half = Math.max(1, Math.floor(length / 2));
        if (half >= length) throw osError('ENOSPC', 'write', fault.at);
        diskFull = fault;
        return writeSync(fd, buffer, offset, half, position);
      }
      default:
        return fault.kind satisfies never;
    }
  }) as typeof writeSync;

  const failArmedSync = (): void => {
    const fault = syncArmed;
    if (fault === undefined) return;
    syncArmed = undefined;
    onFault(fault);
    throw osError('EIO', 'fsync', fault.at);
  };
  const wrapHandle = (handle: FileHandle): FileHandle =>
    new Proxy(handle, {
      get(target, property) {
        if (property === 'datasync' || property === 'sync')
          return async () => {
            failArmedSync();
            return target[property]();
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });

  const openHandle = (async (...args: Parameters<typeof fsp.open>) =>
    wrapHandle(await fsp.open(...args))) as typeof fsp.open;
  // A new log's descriptor syncs through these: the same armed fault as a handle's sync.
  const syncOf =
    (call: (fd: number) => Promise<void>) =>
    async (fd: number): Promise<void> => {
      creating.delete(fd);
      failArmedSync();
      return call(fd);
    };
  const open = ((...args: Parameters<typeof openSync>) => {
    const fd = openSync(...args);
    if (typeof args[1] === 'string' && args[1].startsWith('wx')) creating.add(fd);
    return fd;
  }) as typeof openSync;
  const close = ((fd: number) => {
    creating.delete(fd);
    closeSync(fd);
  }) as typeof closeSync;
  // Every other call is node:fs's own (fsp's extra members are ignored by the backend).
  return {
    ...fsp,
    open: openHandle,
    writeSync: write,
    fstatSync,
    ftruncateSync,
    statSync,
    linkSync,
    unlinkSync,
    openSync: open,
    closeSync: close,
    fsync: syncOf(promisify(fsync)),
    fdatasync: syncOf(promisify(fdatasync)),
  };
}

/** The schedule as one argv/env string (`sync@12,enospc@30`), and back; refuses anything else. */
export function formatSchedule(schedule: readonly ScheduledFault[]): string {
  return schedule.map(({ kind, at }) => `${kind}@${at}`).join(',');
}

export function parseSchedule(text: string): ScheduledFault[] {
  if (text === '') return [];
  return text.split(',').map((part) => {
    const match = /^(write|sync|enospc)@([1-9][0-9]{0,8})$/.exec(part);
    if (match === null) throw new Error(`bad fault "${part}": expected <write|sync|enospc>@<n>`);
    return { kind: match[1] as StorageFaultKind, at: Number(match[2]) };
  });
}
