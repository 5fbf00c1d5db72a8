import type { SessionPersistence, SessionPreparations } from '@strand/persistence';
import type { ProjectionRegistry } from '@strand/projection';
import type { ProjectionCache } from '@strand/projection-cache';
import type { SessionQuery } from '@strand/query';
import { silentLogger, type Logger, type SessionId, type SessionStore } from '@strand/session';
import type { ShareGrantStore } from './share/grant-store.js';
import type { PriceTable } from './usage/pricing.js';
import type {
  AgentPort,
  CatalogPort,
  CoordinationPort,
  ExportPort,
  McpPort,
  SearchPort,
  SubagentPort,
} from './ports.js';

/** Everything the host serves from; built by the composition root (`openStrandRuntime` in `@strand/runtime`) or by tests. */
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
  /** The MCP tools at `/mcp` (streamable HTTP); absent: `/mcp` is 404. */
  readonly mcp?: McpPort;
  /** Session exports (`session.export`); absent: `HOST_EXPORT_UNAVAILABLE`. */
  readonly exporter?: ExportPort;
  /** Share grants (read-only links), kept with the corpus; absent: `share.*` is `HOST_SHARE_UNAVAILABLE`. */
  readonly shares?: ShareGrantStore;
  /** Prices for `usage.summary` (`strand serve --pricing`); the bundled genai-prices table by default. */
  readonly prices?: PriceTable;
  /** Where the host reports failures it contains (a reply that could not be sent, a failed promotion). Default: `silentLogger`. */
  readonly logger?: Logger;
}

/** The services as a running host serves from them: their defaults resolved once, when it starts. */
export type ServedServices = HostServices & { readonly logger: Logger };

/** Whether an agent of this host is running a turn of `id`; a host without agents runs none. */
export function isBusy(services: HostServices, id: SessionId): boolean {
  return services.agents?.isBusy(id) ?? false;
}

export function servedServices(services: HostServices): ServedServices {
  return { ...services, logger: services.logger ?? silentLogger };
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
  /**
   * Hard ceiling on one incoming frame: ws stops reading a longer one and closes the connection
   * with 1009 (it cannot answer a frame it never buffered). Default: 4× `maxFrameBytes`, at least
   * 16 MiB; never below `maxFrameBytes`.
   */
  readonly frameCeilingBytes?: number;
  /** Failed token attempts one remote address may make per window before it gets HTTP 429. */
  readonly maxAuthFailures: number;
  readonly authFailureWindowSeconds: number;
  /** Open TCP connections (pages, WebSockets, sockets that sent nothing yet) before a new one gets HTTP 503 `HOST_TOO_MANY_CONNECTIONS`. */
  readonly maxConnections: number;
  /** Open TCP connections from one remote address before a new one from it gets HTTP 503 `HOST_TOO_MANY_CONNECTIONS`. */
  readonly maxConnectionsPerAddress: number;
  /**
   * Milliseconds a new connection has to send a complete first request (for `/rpc`: to pass the
   * access checks and be upgraded) before it is closed, so idle sockets cannot hold the caps.
   */
  readonly handshakeTimeoutMs: number;
}

export const DEFAULT_LIMITS: HostLimits = {
  maxFrameBytes: 1024 * 1024,
  maxInFlight: 64,
  maxQueuedBytes: 1024 * 1024,
  smallLogBytes: 64 * 1024,
  followWindow: 200,
  maxAuthFailures: 10,
  authFailureWindowSeconds: 60,
  maxConnections: 1024,
  maxConnectionsPerAddress: 256,
  handshakeTimeoutMs: 5000,
};

/** The ws `maxPayload`: frames between `maxFrameBytes` and this get HOST_FRAME_TOO_LARGE. */
export function frameCeiling(limits: HostLimits): number {
  const ceiling = limits.frameCeilingBytes ?? Math.max(limits.maxFrameBytes * 4, 16 * 1024 * 1024);
  return Math.max(ceiling, limits.maxFrameBytes);
}

/** Projection keys a list row carries as hints (the list index's: one list, one set of keys). */
export { LIST_HINT_KEYS } from '@strand/projection-cache';
