import type { LockRecord } from './lock-record.js';

export type DataLockErrorCode = (typeof DATA_LOCK_ERROR_CODES)[number];

/**
 * - `CLI_DATA_FOLDER_LOCKED`: another live process writes this data folder; `holder` is its
 *   record when it wrote one (a writer that is still starting may not have).
 * - `CLI_DATA_FOLDER_LOCK_FAILED`: the lock file could not be opened or locked (permissions, a
 *   file system without locks).
 * - `CLI_HOLDING_HOST_UNAUTHORIZED`: the host holding the folder refused a read command's token
 *   (its token file was unreadable, or `--token` was wrong).
 * - `CLI_HOLDING_HOST_UNREACHABLE`: the host holding the folder does not accept connections.
 */
export const DATA_LOCK_ERROR_CODES = [
  'CLI_DATA_FOLDER_LOCKED',
  'CLI_DATA_FOLDER_LOCK_FAILED',
  'CLI_HOLDING_HOST_UNAUTHORIZED',
  'CLI_HOLDING_HOST_UNREACHABLE',
] as const;

export class DataLockError extends Error {
  override readonly name = 'DataLockError';
  constructor(
    readonly code: DataLockErrorCode,
    message: string,
    readonly holder?: LockRecord,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  toJSON(): { code: DataLockErrorCode; message: string; holder?: LockRecord } {
    return {
      code: this.code,
      message: this.message,
      ...(this.holder === undefined ? {} : { holder: this.holder }),
    };
  }
}

export function isDataLockError(error: unknown, code?: DataLockErrorCode): error is DataLockError {
  return error instanceof DataLockError && (code === undefined || error.code === code);
}
