import type { SessionPersistence, SessionPreparations } from '@strand/persistence';
import type { ProjectionRegistry } from '@strand/projection';
import type { ProjectionCache } from '@strand/projection-cache';
import type { SessionQuery } from '@strand/query';
import type { SessionStore } from '@strand/session';
import type { AgentPort, CatalogPort, CoordinationPort, SearchPort, SubagentPort } from './ports.js';

/** Everything the host serves from; built by the composition root (`runtime.ts`) or by tests. */
export interface HostServices {
  readonly persistence: SessionPersistence;
  readonly preparations: SessionPreparations;
  readonly store: SessionStore;
  readonly registry: ProjectionRegistry;
  readonly cache?: ProjectionCache;
  readonly query: SessionQuery;
  readonly agents?: AgentPort;
  readonly subagents?: SubagentPort;
  readonly search?: SearchPort;
  readonly catalogs?: CatalogPort;
  /** Several hosts on one database: leases and the cross-host append feed. */
  readonly coordination?: CoordinationPort;
}

export interface HostLimits {
  /** Largest accepted request frame (bytes); larger ones get HOST_FRAME_TOO_LARGE. */
  readonly maxFrameBytes: number;
  /** Requests in flight per connection before HOST_TOO_MANY_REQUESTS. */
  readonly maxInFlight: number;
  /** Outbound bytes queued on one connection (beyond the kernel socket buffers) before its follows get `follow.resync`. */
  readonly maxQueuedBytes: number;
  /** `session.list`: stored size under which a row without cache hints gets one bounded observation. */
  readonly smallLogBytes: number;
  /** `session.follow`: events in the opening window by default. */
  readonly followWindow: number;
}

export const DEFAULT_LIMITS: HostLimits = {
  maxFrameBytes: 1024 * 1024,
  maxInFlight: 64,
  maxQueuedBytes: 1024 * 1024,
  smallLogBytes: 64 * 1024,
  followWindow: 200,
};

/** Projection keys a list row carries as hints. */
export const LIST_HINT_KEYS = ['title', 'listMetadata', 'agentPreset'] as const;
