import { IMPORT_ERRORS } from '@strand/session/errors';

/**
 * The import's codes. Per-file problems are never thrown: they become reports in the summary.
 * Only a run that cannot start (no source folder, a ledger that cannot be written) throws an
 * `ImportError`.
 */
export const IMPORT_ERROR_CODES = IMPORT_ERRORS.codes;
export type ImportErrorCode = (typeof IMPORT_ERROR_CODES)[number];

export class ImportError extends IMPORT_ERRORS.errorClass('ImportError') {}

export function isImportError(error: unknown): error is ImportError {
  return error instanceof ImportError;
}
