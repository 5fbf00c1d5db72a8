export {
  PERSISTENCE_ERROR_CODES,
  PersistenceError,
  isPersistenceError,
  throwIfAborted,
  sessionNotFound,
  sessionExists,
  attachmentNotFound,
  seqConflict,
  type PersistenceErrorCode,
  type CorruptionLocation,
} from './errors.js';
export type {
  SessionPersistence,
  PersistedSessionSummary,
  StoredLog,
  StoredSuffix,
  CreateSessionInput,
  Attachment,
  ReadOptions,
  ListChunksOptions,
  ScanOptions,
} from './types.js';
export { compareSessionIds } from './id-order.js';
export { elidedOpenTurnStart, openTurnStart, scanRepairs } from './scanned-log.js';
export {
  openJsonlPersistence,
  JsonlSessionPersistence,
  type JsonlPersistenceOptions,
} from './jsonl/jsonl-persistence.js';
export { escapeSessionId, unescapeSessionId } from './jsonl/file-names.js';
export {
  checkInherited,
  decodeHeader as decodeStoredHeader,
  revisionToken,
  storedSuffix,
  storedSummary,
  withRepairsWritten,
  type StoredSessionFields,
} from './stored-records.js';
export {
  checkEnvelope as checkStoredEnvelope,
  encodeEventLines,
  EventLineError,
} from './jsonl/event-lines.js';
export {
  SessionPreparations,
  type PreparationLease,
  type PublicationReservation,
  type PreparationStats,
  type SessionPreparationsOptions,
  type BorrowOptions,
} from './preparation/session-preparations.js';
export { prepare, type PreparedSession } from './preparation/prepared-session.js';
export { persistenceWriter } from './preparation/persistence-writer.js';
export {
  openSqlitePersistence,
  SqliteSessionPersistence,
  SQLITE_APPLICATION_ID,
  SQLITE_SCHEMA_VERSION,
  type SqlitePersistenceOptions,
} from './sqlite/index.js';
