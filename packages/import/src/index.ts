export { importTranscripts } from './run/import-transcripts.js';
export { harnessHome, type HomedHarness } from './run/harness-home.js';
export { defaultSourceDir } from './harnesses.js';
export { IMPORT_ERROR_CODES, ImportError, isImportError, type ImportErrorCode } from './errors.js';
export { LEDGER_FILE } from './ledger/ledger.js';
export type { FileRead } from './live/file-follow.js';
export {
  startLiveIngest,
  type IngestTarget,
  type LiveIngest,
  type LiveIngestOptions,
  type WatchSpec,
} from './live/live-ingest.js';
export { parseWatchSpec } from './live/watch-spec.js';
export type { SessionDigestOption } from './run/session-digest.js';
export type { WrittenSession } from './write/write-plan.js';
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
