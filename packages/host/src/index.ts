export {
  startHost,
  HostConfigError,
  FRAME_CEILING_CLOSE_CODE,
  SHARE_REVOKED_CLOSE_CODE,
  SHARE_EXPIRED_CLOSE_CODE,
  type HostOptions,
  type RunningHost,
} from './server.js';
export {
  inProcessHost,
  type InProcessHost,
  type InProcessHostOptions,
  type InProcessSocket,
} from './in-process.js';
export type { Refusal, RefusalListener } from './edge/refusal-log.js';
export { DEFAULT_LIMITS, LIST_HINT_KEYS, type HostServices, type HostLimits } from './services.js';
export type {
  AgentPort,
  SubagentPort,
  SearchPort,
  CatalogPort,
  CoordinationPort,
  AppendSignal,
  McpCaller,
  ExportPort,
  McpPort,
} from './ports.js';
export { HOST_ERROR_CODES, HostError, toWireError, type HostErrorCode } from './errors.js';
export { FollowHub, type DraftPacing } from './follow/follow-hub.js';
export { ListChangeFeed } from './list/list-changes.js';
export type { DraftClock } from './follow/draft-throttle.js';
export { MIN_TOKEN_LENGTH, isLoopbackHost, shareCookieName } from './auth.js';
export type { ShareGrant, ShareGrantStore } from './share/grant-store.js';
export type { ShareTimers } from './share/expiry-timer.js';
export { usageSummary } from './methods/usage-summary.js';
export { reconcileListIndex, type ListReconcileDeps, type ListReconcileResult } from './list/reconcile.js';
export {
  foldListHints,
  foldUnfoldedListHints,
  hintsOf as listRowHints,
  usageOf as listRowUsage,
} from './list/fold-hints.js';
export {
  parsePricingFile,
  bundledPrices,
  withOverrides,
  type PriceTable,
  type Rates,
  type ModelRates,
} from './usage/pricing.js';
