import { defineErrors } from '../define-errors.js';

/** The persistence package's codes, shared by every backend (JSONL, SQLite, PostgreSQL). */
export const PERSISTENCE_ERRORS = defineErrors('persistence', {
  /** An append's first seq is not the next stored seq ("expected N, got M"): another writer won. */
  PERSISTENCE_SEQ_CONFLICT: { meaning: 'Another writer appended to the session first.', number: -32030 },
  /** The underlying storage failed (I/O error, disk full…); the stored log is as before the batch. */
  PERSISTENCE_IO: { meaning: 'Storage failed while writing.', number: -32031 },
  PERSISTENCE_NOT_FOUND: { meaning: 'No stored session has this id.' },
  /** `create` of an id that is already stored. */
  PERSISTENCE_EXISTS: { meaning: 'A stored session already has this id.' },
  /** Damage before later valid data, a bad header, or a seq gap; `details` names session and location. */
  PERSISTENCE_CORRUPT: {
    meaning: 'Damage before later valid data, a bad header, or a seq gap in a stored session.',
  },
  PERSISTENCE_FORMAT_UNSUPPORTED: {
    meaning: "Data written by a newer format version, or a database that is not Strand's.",
  },
  /** The caller's signal aborted the read. */
  PERSISTENCE_ABORTED: { meaning: 'The read was cancelled.' },
  /** The session id cannot be stored (its escaped file name would be too long). */
  PERSISTENCE_ID_UNSTORABLE: {
    meaning: 'The session id cannot be stored (its file name would be too long).',
  },
  PERSISTENCE_ATTACHMENT_NOT_FOUND: { meaning: 'No attachment with that ref is stored for the session.' },
  /** A prepared session is reserved for publication and cannot be reserved again. */
  PERSISTENCE_RESERVED: { meaning: 'A prepared session is already reserved for publication.' },
  PERSISTENCE_CLOSED: { meaning: 'The store was closed.' },
});
