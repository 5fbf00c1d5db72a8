// Public API of the PostgreSQL coordination component: session leases and the cross-host append feed.
export {
  COORDINATION_ERROR_CODES,
  CoordinationError,
  isCoordinationError,
  type CoordinationErrorCode,
} from './errors.js';
export {
  SessionLeases,
  DEFAULT_LEASE_TTL_MS,
  LEASES_APPLICATION_NAME,
  type SessionLeasesOptions,
  type LeaseClock,
  type LeaseHolder,
  type LeaseLoss,
} from './session-leases.js';
export {
  AppendFeed,
  APPEND_FEED_APPLICATION_NAME,
  type AppendFeedOptions,
  type AppendFeedSignal,
} from './append-feed.js';
