/**
 * Stable error codes of `@strand/import`. Per-file problems are never thrown: they become
 * reports in the summary. Only a run that cannot start (no source folder, a ledger that cannot
 * be written) throws an `ImportError`.
 */
export type ImportErrorCode = (typeof IMPORT_ERROR_CODES)[number];

export const IMPORT_ERROR_CODES = [
  /** The source folder does not exist or is not a folder. */
  'IMPORT_SOURCE_NOT_FOUND',
  /** The harness name is not one of `claude-code`, `codex`, `gemini`. */
  'IMPORT_HARNESS_UNKNOWN',
  /** The import ledger could not be written (the data folder is not writable). */
  'IMPORT_LEDGER_WRITE_FAILED',
] as const;

export class ImportError extends Error {
  override readonly name = 'ImportError';
  readonly code: ImportErrorCode;

  constructor(code: ImportErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }

  toJSON(): { name: string; code: ImportErrorCode; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}

export function isImportError(error: unknown): error is ImportError {
  return error instanceof ImportError;
}
