export { runSoak, type SoakOptions, type SoakResult, type SoakSummary } from './soak.js';
export {
  checkPromises,
  type CheckInput,
  type Verdict,
  type BrokenPromise,
  type StoredLogs,
} from './checker.js';
export {
  faultInjectingFs,
  formatSchedule,
  parseSchedule,
  type ScheduledFault,
  type StorageFaultKind,
} from './fault-fs.js';
export { contentHash, emptyLedger, type Ledger } from './ledger.js';
