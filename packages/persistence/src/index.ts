export { PersistenceError, isPersistenceError, throwIfAborted, type PersistenceErrorCode, type CorruptionLocation } from './errors.js';
export type {
  SessionPersistence,
  PersistedSessionSummary,
  StoredLog,
  StoredSuffix,
  CreateSessionInput,
  Attachment,
  ReadOptions,
} from './types.js';
