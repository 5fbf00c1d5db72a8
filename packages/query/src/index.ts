export {
  SESSION_QUERY_ERROR_CODES,
  SessionQueryError,
  isSessionQueryError,
  type SessionQueryErrorCode,
} from './errors.js';
export { listCorpus, type CorpusRow } from './corpus.js';
export { SessionObservation, type ObservationCut, type ObservationSource } from './observation.js';
export { windowBounds, type ObservationWindow } from './observation-window.js';
export {
  SessionQuery,
  type ObserveOptions,
  type ProjectionMode,
  type ResolutionHooks,
  type SessionQueryDeps,
} from './session-query.js';
export { suffixRepairs } from './suffix-repairs.js';
