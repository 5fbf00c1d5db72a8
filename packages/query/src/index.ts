export { SessionQueryError, isSessionQueryError, type SessionQueryErrorCode } from './errors.js';
export { listCorpus, type CorpusRow } from './corpus.js';
export { SessionObservation, type ObservationCut, type ObservationSource } from './observation.js';
export {
  SessionQuery,
  windowBounds,
  type ObserveOptions,
  type ObservationWindow,
  type ProjectionMode,
  type ResolutionHooks,
  type SessionQueryDeps,
} from './session-query.js';
export { suffixRepairs } from './suffix-repairs.js';
