export { persistenceContract, type PersistenceUnderTest } from './persistence-contract.js';
export {
  STORAGE_FAULT_PATHS,
  storageFaultContract,
  type FaultyPersistenceUnderTest,
  type InjectedStorageFaults,
  type StorageFaultPath,
} from './persistence-contract-faults.js';
export { closedTurn, crashedTurn, createWritingSession, testHeader, writingSession } from './log-builders.js';
export {
  eventBatches,
  eventInput,
  holdsNegativeZero,
  losslessJson,
  unknownEventType,
} from './log-arbitraries.js';
export { ManualClock } from './clock/manual-clock.js';
export { rawGet, readAnswer, type HttpAnswer } from './http-answer.js';
export { CountingPersistence } from './counting-persistence.js';
export { DelegatingPersistence } from './delegating-persistence.js';
export {
  FaultyPersistence,
  injectedWriteError,
  type AppendFault,
  type FaultPlan,
} from './faulty-persistence.js';
export {
  mockChatServer,
  startStream,
  sse,
  textChunk,
  finishChunk,
  usageChunk,
  pause,
  endStream,
  answerWith,
  pacedAnswer,
  type PacedAnswer,
  type ChatHandler,
  type StreamUsage,
  type MockChatServer,
  type ReceivedRequest,
} from './mock-chat-server.js';
export {
  TEST_SEED_VARIABLE,
  TestSeedError,
  parseTestSeed,
  replayHint,
  seededIntegers,
  seededSample,
  testSeed,
} from './seed/test-seed.js';
export { turn, writeStoredSession, type StoredSessionOptions } from './stored-sessions.js';
export { batchGate } from './wait/batch-gate.js';
export { eventually, HANG_GUARD_MS } from './wait/eventually.js';
export { latch } from './wait/latch.js';
export { openOutcome, runAfterPragma } from './sqlite-openers.js';
