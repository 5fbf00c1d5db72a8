import { defined } from '@strand/session';
import { CLI_ERRORS, type StrandErrorOptions } from '@strand/session/errors';
import type { LockRecord } from './lock-record.js';

/**
 * The data-folder lock's codes: another live process writes the folder (`holder` is its record
 * when it wrote one — a writer that is still starting may not have), the lock could not be taken,
 * or the host holding the folder refused or did not answer a read command.
 */
export const DATA_LOCK_ERROR_CODES = [
  'CLI_DATA_FOLDER_LOCKED',
  'CLI_DATA_FOLDER_LOCK_FAILED',
  'CLI_HOLDING_HOST_UNAUTHORIZED',
  'CLI_HOLDING_HOST_UNREACHABLE',
] as const satisfies readonly (typeof CLI_ERRORS.codes)[number][];
export type DataLockErrorCode = (typeof DATA_LOCK_ERROR_CODES)[number];

export class DataLockError extends CLI_ERRORS.errorClass<DataLockErrorCode>('DataLockError') {
  constructor(
    code: DataLockErrorCode,
    message: string,
    readonly holder?: LockRecord,
    options?: StrandErrorOptions,
  ) {
    super(code, message, options);
  }

  protected override jsonFields(): { holder?: LockRecord } {
    return defined({ holder: this.holder });
  }
}

export function isDataLockError(error: unknown, code?: DataLockErrorCode): error is DataLockError {
  return error instanceof DataLockError && (code === undefined || error.code === code);
}
