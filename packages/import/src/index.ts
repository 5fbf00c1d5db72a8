export { importTranscripts } from './run/import-transcripts.js';
export { defaultSourceDir } from './harnesses.js';
export { IMPORT_ERROR_CODES, ImportError, isImportError, type ImportErrorCode } from './errors.js';
export { LEDGER_FILE } from './ledger/ledger.js';
export {
  IMPORT_HARNESSES,
  isHarness,
  type Harness,
  type ImportOptions,
  type ImportProgress,
  type ImportReport,
  type ImportSummary,
  type ImportedSession,
  type SessionOutcome,
} from './types.js';
