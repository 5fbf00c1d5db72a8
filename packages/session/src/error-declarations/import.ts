import { defineErrors } from '../define-errors.js';

/**
 * The import's codes. Per-file problems are never thrown (they are reports in the summary); only
 * a run that cannot start throws.
 */
export const IMPORT_ERRORS = defineErrors('import', {
  /** The source folder does not exist or is not a folder. */
  IMPORT_SOURCE_NOT_FOUND: { meaning: 'The import source folder does not exist.' },
  /** The harness name is not one of `claude-code`, `codex`, `gemini`, `opencode`. */
  IMPORT_HARNESS_UNKNOWN: { meaning: 'The harness name is not claude-code, codex, gemini or opencode.' },
  /** The import ledger could not be written (the data folder is not writable). */
  IMPORT_LEDGER_WRITE_FAILED: { meaning: 'The import ledger could not be written.' },
});
