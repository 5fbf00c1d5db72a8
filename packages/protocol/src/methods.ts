import type { FollowDraftParams } from './draft.js';
import type {
  ProjectionBaseline,
  ProjectionHints,
  SubagentListEntry,
  SubagentTreeEntry,
  WireEvent,
  WireSessionHeader,
} from './session-types.js';

/** One row of `session.list`. */
export interface SessionListRow {
  readonly id: string;
  readonly header: WireSessionHeader;
  /** Attached (an agent or live session) on this host. */
  readonly live: boolean;
  /** A turn is in progress (here, or — with `ownedElsewhere` — possibly on the host that owns it). */
  readonly busy: boolean;
  /**
   * Another host holds this session's lease (a shared-database deployment): it runs the agent,
   * commands that drive one are refused here with `SESSION_OWNED_ELSEWHERE`. Absent: not known
   * to be owned elsewhere (always absent on a single host).
   */
  readonly ownedElsewhere?: boolean;
  /** List-relevant projection hints; absent keys are unknown. */
  readonly hints?: ProjectionHints;
}

export interface SearchHit {
  readonly seq: number;
  /** At most 200 characters; matched terms are wrapped in U+0002 … U+0003. */
  readonly snippet: string;
}
export interface SearchResult {
  readonly sessionId: string;
  readonly hits: readonly SearchHit[];
}

/** The opening snapshot of a follow generation: always delivered before any frame of it. */
export interface FollowSnapshot {
  readonly followId: string;
  readonly generation: number;
  readonly header: WireSessionHeader;
  readonly inheritedEventCount: number;
  /** The log length at the snapshot. */
  readonly cursor: number;
  /** The tail window: events `[firstSeq, cursor)`. */
  readonly firstSeq: number;
  readonly events: readonly WireEvent[];
  /** Every client-visible unit of this host at `cursor − 1`. */
  readonly baseline: ProjectionBaseline;
  readonly live: boolean;
  readonly busy: boolean;
}

export interface ModelCatalogEntry {
  readonly provider: string;
  readonly model: string;
  readonly label: string;
  readonly reasoningEfforts?: readonly string[];
}
export interface PresetCatalogEntry {
  readonly name: string;
  readonly description: string;
  readonly allowedTools: readonly string[];
  readonly defaultModel?: { readonly provider: string; readonly model: string };
}

/** Every method: params and result. */
export interface Methods {
  'session.list': {
    params: { readonly limit?: number };
    result: { readonly sessions: readonly SessionListRow[] };
  };
  'session.search': {
    params: { readonly query: string; readonly limit?: number; readonly cursor?: string };
    result: { readonly results: readonly SearchResult[]; readonly nextCursor?: string };
  };
  'session.follow': {
    params: { readonly id: string; readonly interactive?: boolean; readonly window?: number };
    result: FollowSnapshot;
  };
  'session.unfollow': { params: { readonly followId: string }; result: { readonly ok: true } };
  'session.page': {
    params: {
      readonly id: string;
      readonly beforeSeq?: number;
      readonly fromSeq?: number;
      readonly toSeq?: number;
      readonly limit?: number;
    };
    result: { readonly firstSeq: number; readonly events: readonly WireEvent[]; readonly cursor: number };
  };
  'session.attachment': {
    params: { readonly id: string; readonly ref: string };
    result: { readonly mediaType: string; readonly base64: string };
  };
  'session.fork': {
    params: { readonly id: string; readonly atSeq: number };
    result: { readonly id: string };
  };
  'subagent.list': {
    params: { readonly id: string; readonly scope?: 'children' | 'descendants' };
    result: {
      readonly rows: readonly (SubagentListEntry | SubagentTreeEntry)[];
      /**
       * `subagentTiming` hints per child id (live watermark cache or cache rows; partial: a missing
       * id is unknown). Beside the rows, never in them: the row shape is the listing contract's.
       */
      readonly timing?: { readonly [childId: string]: ProjectionHints };
    };
  };
  'session.create': {
    params: {
      readonly cwd?: string;
      readonly model?: {
        readonly provider: string;
        readonly model: string;
        readonly reasoningEffort?: string;
      };
      readonly preset?: string;
      readonly prompt?: string;
    };
    result: { readonly id: string };
  };
  'session.prompt': {
    params: { readonly id: string; readonly text: string };
    result: { readonly accepted: true };
  };
  'session.cancel': { params: { readonly id: string }; result: { readonly cancelled: boolean } };
  'session.rename': {
    params: { readonly id: string; readonly title: string };
    result: { readonly seq: number };
  };
  'session.selectModel': {
    params: {
      readonly id: string;
      readonly provider: string;
      readonly model: string;
      readonly reasoningEffort?: string;
    };
    result: { readonly seq: number };
  };
  'session.selectPreset': {
    params: { readonly id: string; readonly preset: string | null };
    result: { readonly seq: number };
  };
  'catalog.models': {
    params: Record<string, never>;
    result: { readonly models: readonly ModelCatalogEntry[] };
  };
  'catalog.presets': {
    params: Record<string, never>;
    result: { readonly presets: readonly PresetCatalogEntry[] };
  };
}

export type MethodName = keyof Methods;
export type ParamsOf<M extends MethodName> = Methods[M]['params'];
export type ResultOf<M extends MethodName> = Methods[M]['result'];

/** Server → client notifications of a follow. Frames carry their generation; older ones are ignored. */
/** Why a live session stopped: its durable write failed (`code` is from the error table). */
export interface FollowStopped {
  readonly code: 'SESSION_WRITE_FAILED';
  readonly message: string;
}

export interface Notifications {
  /** Live events appended after the snapshot's cursor (contiguous seqs). */
  'follow.events': {
    readonly followId: string;
    readonly generation: number;
    readonly events: readonly WireEvent[];
  };
  /** One key's whole new value at `seq`. */
  'follow.projection': {
    readonly followId: string;
    readonly generation: number;
    readonly key: string;
    readonly value: unknown;
    readonly seq: number;
  };
  /** Session state that is not a projection: live/busy, and why a live session stopped. */
  'follow.state': {
    readonly followId: string;
    readonly generation: number;
    readonly live: boolean;
    readonly busy: boolean;
    /**
     * Present once the live session stopped on a failed durable write: no event past the durable
     * cut was or will be sent; the host detaches the session when its turn has ended, and the next
     * command reopens it from disk.
     */
    readonly stopped?: FollowStopped;
  };
  /** The follower fell too far behind (or the source changed): re-follow for a new generation. */
  'follow.resync': { readonly followId: string; readonly generation: number; readonly reason: string };
  /** The running step's text so far; transient (see `draft.ts`). */
  'follow.draft': FollowDraftParams;
}
export type NotificationName = keyof Notifications;
