import type { FileHandle } from 'node:fs/promises';
import Database from 'better-sqlite3';
import type { InjectedStorageFaults, StorageFaultPath } from '@strand/test-support';
import { nodeStorageFs, type StorageFs } from '../jsonl/storage-fs.js';

/** Arms and heals injected faults; `hits` counts the calls that failed, per path. */
export class StorageFaults implements InjectedStorageFaults {
  readonly hits = new Map<StorageFaultPath, number>();
  readonly #armed = new Map<StorageFaultPath, string | undefined>();

  /** From now on every call on `path` fails (with `code`, else the path's usual code) until `heal`. */
  arm(path: StorageFaultPath, code?: string): void {
    this.#armed.set(path, code);
  }

  heal(): void {
    this.#armed.clear();
  }

  hitsOf(path: StorageFaultPath): number {
    return this.hits.get(path) ?? 0;
  }

  /** The code `path` fails with now, or undefined when it is not armed (and counts the hit). */
  fails(path: StorageFaultPath, usual: Record<StorageFaultPath, string>): string | undefined {
    if (!this.#armed.has(path)) return undefined;
    this.hits.set(path, this.hitsOf(path) + 1);
    return this.#armed.get(path) ?? usual[path];
  }
}

// ---- JSONL: a `StorageFs` whose calls fail as the OS would --------------------------------------

/** What each path's OS call fails with unless the test names a code. */
const OS_CODES: Record<StorageFaultPath, string> = {
  open: 'EACCES',
  write: 'ENOSPC',
  sync: 'EIO',
  rename: 'EPERM',
  create: 'EROFS',
  delete: 'EBUSY',
};

function osError(code: string, syscall: string, file?: unknown): NodeJS.ErrnoException {
  const where = typeof file === 'string' ? ` '${file}'` : '';
  return Object.assign(new Error(`${code}: injected fault, ${syscall}${where}`), { code, syscall });
}

/**
 * `nodeStorageFs` with faults: `open` of an existing file or folder (a writer handle, a folder to
 * fsync), `create` (a new temp file, a folder), `write` (writes and truncation), `sync` (fsync,
 * fdatasync, of a handle or a descriptor), `rename` (rename, and the no-overwrite link that names
 * a new log), `delete` (rm, unlink). Handles it opens carry the write and sync faults.
 */
export function faultyStorageFs(faults: StorageFaults, inner: StorageFs = nodeStorageFs): StorageFs {
  const check = (path: StorageFaultPath, syscall: string, file?: unknown): void => {
    const code = faults.fails(path, OS_CODES);
    if (code !== undefined) throw osError(code, syscall, file);
  };
  const guarded = <F extends (...args: never[]) => unknown>(
    path: StorageFaultPath,
    syscall: string,
    call: F,
  ): F =>
    ((...args: Parameters<F>) => {
      check(path, syscall, args[0]);
      return call(...args);
    }) as F;
  const creates = (flags: unknown): boolean => typeof flags === 'string' && /[wxa]/.test(flags);
  const open = (async (file, flags, mode) => {
    check(creates(flags) ? 'create' : 'open', 'open', file);
    return faultyHandle(await inner.open(file, flags, mode), check);
  }) as StorageFs['open'];
  const openSync = ((file, flags, mode) => {
    check(creates(flags) ? 'create' : 'open', 'open', file);
    return inner.openSync(file, flags, mode);
  }) as StorageFs['openSync'];
  return {
    ...inner,
    open,
    openSync,
    fsync: async (fd) => {
      check('sync', 'fsync');
      return inner.fsync(fd);
    },
    fdatasync: async (fd) => {
      check('sync', 'fdatasync');
      return inner.fdatasync(fd);
    },
    linkSync: guarded('rename', 'link', inner.linkSync),
    unlinkSync: guarded('delete', 'unlink', inner.unlinkSync),
    rename: guarded('rename', 'rename', inner.rename),
    unlink: guarded('delete', 'unlink', inner.unlink),
    rm: guarded('delete', 'rm', inner.rm),
    mkdir: guarded('create', 'mkdir', inner.mkdir),
    writeSync: guarded('write', 'write', inner.writeSync),
    ftruncateSync: guarded('write', 'ftruncate', inner.ftruncateSync),
  };
}

const HANDLE_PATHS: Readonly<Record<string, StorageFaultPath>> = {
  write: 'write',
  writeFile: 'write',
  truncate: 'write',
  sync: 'sync',
  datasync: 'sync',
};

function faultyHandle(
  handle: FileHandle,
  check: (path: StorageFaultPath, syscall: string) => void,
): FileHandle {
  return new Proxy(handle, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const path = typeof property === 'string' ? HANDLE_PATHS[property] : undefined;
      const method = value as (...args: unknown[]) => unknown;
      if (path === undefined) return method.bind(target);
      return async (...args: unknown[]) => {
        check(path, property as string);
        const result = await method.apply(target, args);
        return result === target ? (receiver as unknown) : result;
      };
    },
  });
}

// ---- SQLite: a connection whose statements and commits fail as the engine would ---------------

/** What each path fails with unless the test names a code: SQLite's own codes. */
const SQLITE_CODES: Record<StorageFaultPath, string> = {
  open: 'SQLITE_CANTOPEN',
  write: 'SQLITE_FULL',
  sync: 'SQLITE_IOERR_FSYNC',
  rename: 'SQLITE_READONLY',
  create: 'SQLITE_IOERR_WRITE',
  delete: 'SQLITE_BUSY',
};

const SQLITE_MESSAGES: Readonly<Record<string, string>> = {
  SQLITE_CANTOPEN: 'unable to open database file',
  SQLITE_FULL: 'database or disk is full',
  SQLITE_READONLY: 'attempt to write a readonly database',
  SQLITE_BUSY: 'database is locked',
};

function sqliteError(code: string): Error {
  return new Database.SqliteError(SQLITE_MESSAGES[code] ?? 'disk I/O error', code);
}

/**
 * Which path a statement is on: inserting a session row is `create`, event and attachment rows
 * are `write`, rewriting the session row (its revision, next seq) is `rename`, deleting is `delete`.
 */
function pathOfStatement(sql: string): StorageFaultPath | undefined {
  const text = sql.trimStart().toUpperCase();
  if (text.startsWith('INSERT INTO SESSIONS')) return 'create';
  if (text.startsWith('INSERT')) return 'write';
  if (text.startsWith('UPDATE')) return 'rename';
  if (text.startsWith('DELETE')) return 'delete';
  return undefined;
}

/**
 * A `connect` for `openSqlitePersistence` whose connection fails as SQLite would: `open` fails the
 * connect itself, a statement on a path fails before it runs, and `sync` fails the commit of
 * anything written (inside a transaction it throws at its end, so better-sqlite3 rolls it back).
 */
export function faultySqliteConnect(faults: StorageFaults): (path: string) => Database.Database {
  return (file) => {
    const openCode = faults.fails('open', SQLITE_CODES);
    if (openCode !== undefined) throw sqliteError(openCode);
    const db = new Database(file);
    let wrote = false;
    const check = (path: StorageFaultPath): void => {
      const code = faults.fails(path, SQLITE_CODES);
      if (code !== undefined) throw sqliteError(code);
    };
    const statement = (inner: Database.Statement, path: StorageFaultPath | undefined): Database.Statement =>
      new Proxy(inner, {
        get(target, property, receiver) {
          const value: unknown = Reflect.get(target, property, target);
          if (typeof value !== 'function') return value;
          const method = value as (...args: unknown[]) => unknown;
          return (...args: unknown[]) => {
            if (path !== undefined && (property === 'run' || property === 'get' || property === 'all')) {
              check(path);
              // Outside a transaction the statement commits at once: its commit is the sync.
              if (!db.inTransaction) check('sync');
              else wrote = true;
            }
            const result = method.apply(target, args);
            return result === target ? (receiver as unknown) : result;
          };
        },
      });
    // A transaction called inside another is a SAVEPOINT: only the outermost one commits (syncs).
    let depth = 0;
    const transaction = (fn: (...args: unknown[]) => unknown): unknown => {
      const body = db.transaction((...args: unknown[]) => {
        if (depth++ === 0) wrote = false;
        try {
          const result = fn(...args);
          if (depth === 1 && wrote) check('sync');
          return result;
        } finally {
          depth--;
        }
      });
      return body;
    };
    return new Proxy(db, {
      get(target, property) {
        if (property === 'prepare')
          return (sql: string) => statement(target.prepare(sql), pathOfStatement(sql));
        if (property === 'transaction') return transaction;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
}
