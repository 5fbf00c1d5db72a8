// Test helpers of @strand/projection-cache: the contract suite every cache engine runs, and fixtures.
export { projectionCacheContract } from './contract.js';
export { listIndexContract } from './contract-list.js';
export type { CacheUnderTestDeps, OpenCacheUnderTest, ProjectionCacheUnderTest } from './harness.js';
export {
  event,
  header,
  listHeader,
  type ListHeaderFacts,
  recordingLogger,
  strictCounter,
  subject,
  turnEvents,
  type RecordingLogger,
} from './fixtures.js';
export { FakeDurableLog, manualTimers } from './fake-log.js';
