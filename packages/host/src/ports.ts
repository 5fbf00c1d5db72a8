import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  ExportFormatName,
  ExportHarnessName,
  MethodName,
  ModelCatalogEntry,
  ParamsOf,
  PresetCatalogEntry,
  ResultOf,
  SearchResult,
  SubagentListEntry,
  SubagentTreeEntry,
} from '@strand/protocol';
import type { SessionObservation } from '@strand/query';
import type { Session, SessionEvent, SessionHeader, SessionId } from '@strand/session';

/**
 * What the host needs from the agent runtime. The host never folds events or runs turns itself;
 * it hands commands to this port.
 */
export interface AgentPort {
  /** Creates a live ordinary session (attached to the store) with a staged model/preset selection. */
  createSession(input: {
    readonly cwd?: string;
    readonly model?: { readonly provider: string; readonly model: string; readonly reasoningEffort?: string };
    readonly preset?: string;
  }): Promise<Session>;
  /** Starts a turn on an ordinary session (promoting a cold one first). */
  prompt(id: SessionId, text: string): Promise<void>;
  /**
   * Runs `work` on the ordinary session live here: a cold one is published first (writing its
   * crash repairs) and stays attached until `work` has settled, then settles like any idle agent.
   * Concurrent callers — other commands, a prompt, an interactive follow — share one publication,
   * so commands on one session never refuse each other. Refuses as activation does
   * (`SESSION_OWNED_ELSEWHERE`…); a storage failure keeps its own code (`PERSISTENCE_IO`…).
   */
  withLiveSession<T>(id: SessionId, work: (session: Session) => Promise<T>, signal: AbortSignal): Promise<T>;
  /** Cancels the running turn, if any. */
  cancel(id: SessionId): Promise<boolean>;
  /**
   * Hands a retained cold observation's prepared session to the live store (no second read) and
   * attaches an agent; the agent stays attached until the returned release is called.
   */
  promote(observation: SessionObservation): Promise<() => void>;
  /** A turn is in progress on this session. */
  isBusy(id: SessionId): boolean;
  /** Busy/idle changes, for list rows and follow state frames. */
  onBusyChange(listener: (id: SessionId, busy: boolean) => void): () => void;
  /**
   * The running step's accumulated assistant text, for `follow.draft`: `step` is the seq of its
   * `step/start`, already durable. Transient; absent means the agents stream no drafts.
   */
  onDraft?(listener: (id: SessionId, step: number, text: string) => void): () => void;
}

export interface SubagentPort {
  list(
    id: SessionId,
    scope: 'children' | 'descendants',
    signal: AbortSignal,
  ): Promise<readonly (SubagentListEntry | SubagentTreeEntry)[]>;
}

export interface SearchPort {
  /** `cwd`/`projectName`/`harness` narrow to sessions whose header matches (see `session.search`). */
  search(
    query: string,
    options: {
      limit?: number;
      cursor?: string;
      cwd?: string;
      projectName?: string;
      harness?: string;
      signal?: AbortSignal;
    },
  ): Promise<{ results: readonly SearchResult[]; nextCursor?: string }>;
}

export interface CatalogPort {
  models(): Promise<readonly ModelCatalogEntry[]>;
  presets(): Promise<readonly PresetCatalogEntry[]>;
}

/**
 * Cross-host coordination when several hosts share one database (absent on a single host):
 * session leases (who runs an agent, who may write) and the feed of appends other hosts commit.
 */
export interface CoordinationPort {
  /** Sessions whose unexpired lease another host holds, in one query (for `session.list`). */
  ownedElsewhere(): Promise<ReadonlyMap<string, { readonly owner: string; readonly expiresAt: Date }>>;
  /**
   * Takes this host's lease for a write without an agent (a command on a cold session); rejects
   * `SESSION_OWNED_ELSEWHERE`. Counted: the last `release` frees it.
   */
  acquire(id: SessionId): Promise<void>;
  release(id: SessionId): Promise<void>;
  /**
   * Appends committed to `id` by any host, as announced by the database: `append` names the seqs
   * written, `resync` means announcements may have been missed — read from your next seq.
   */
  watchAppends(id: SessionId, listener: (signal: AppendSignal) => void): () => void;
}

export type AppendSignal =
  | { readonly kind: 'append'; readonly incarnation: string; readonly from: number; readonly count: number }
  | { readonly kind: 'resync' };

/** The host's own read methods, called in process (what `/mcp`'s tools read through). */
export interface McpCaller {
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
}

/**
 * The MCP tools over HTTP at `/mcp` (`@strand/mcp`, wired by the composition root): the host runs
 * its access checks, then hands over each request with a caller of its own read methods and its
 * address. Absent means `/mcp` answers 404.
 */
export interface McpPort {
  handle(
    request: IncomingMessage,
    response: ServerResponse,
    context: { readonly caller: McpCaller; readonly address: string },
  ): Promise<void>;
}

/** One session as an export reads it: its header, its whole log to the cut, its title there. */
export interface ExportedSession {
  readonly header: SessionHeader;
  readonly events: readonly SessionEvent[];
  readonly title?: string;
}

/** One attachment's bytes as base64, by the ref a log's image names; undefined: not stored. */
export type ExportAttachmentReader = (
  ref: string,
) => Promise<{ readonly mediaType: string; readonly base64: string } | undefined>;

/**
 * Renders one session, read at one cut, into a file format (`@strand/export`, wired by the
 * composition root). The host reads the cut; the port only turns it into text. Absent means
 * `session.export` answers `HOST_EXPORT_UNAVAILABLE`.
 */
export interface ExportPort {
  render(
    format: ExportFormatName,
    document: ExportedSession,
    /** The bytes of an attachment the log references, for a format that embeds images. */
    readAttachment: ExportAttachmentReader,
  ): Promise<{
    readonly text: string;
    readonly mediaType: string;
    readonly fileName: string;
    readonly running: boolean;
  }>;
  /**
   * Writes the document as `harness`'s own transcript into this machine's folder for it (the
   * host's home, never a path from the wire) — `session.exportTo`. Refusals are the host's
   * `HOST_EXPORT_NOT_CONTINUABLE`, `HOST_EXPORT_TARGET_NOT_OURS`, `HOST_EXPORT_WRITE_FAILED`.
   * Absent: `session.exportTo` answers `HOST_EXPORT_UNAVAILABLE`.
   */
  writeHarness?(
    harness: ExportHarnessName,
    document: ExportedSession,
    /** The bytes of an attachment the log references: the transcripts carry images too. */
    readAttachment: ExportAttachmentReader,
    /**
     * The session's subagents: its direct children, each read whole at its own durable cut
     * (Claude Code's sidechains), and the ids of those no target writes (a child's own, or one
     * the listing could not read), named as left out.
     */
    subagents: { readonly children: readonly ExportedSession[]; readonly others: readonly string[] },
  ): Promise<{
    readonly path: string;
    readonly resumeId: string;
    readonly command: string;
    /** The children written as the harness's own child files, by path. */
    readonly children: readonly string[];
    readonly leftOut: readonly string[];
    readonly running: boolean;
  }>;
}
