export { mulberry32, intBetween, type Rng } from './prng.js';
export { VOCABULARY, VOCABULARY_SIZE, pickWord } from './vocabulary.js';
export { prose, code } from './text.js';
export { workloadTurn, EVENTS_PER_TURN, WORKLOAD_START_TIME } from './turn.js';
export {
  workloadSession,
  workloadTurns,
  workloadBatches,
  workloadEvents,
  workloadEventCount,
  WORKLOAD_BASE_SEED,
} from './session.js';
