import type { Attachment } from '@strand/persistence';
import type { NewSessionHeader, SessionEvent, SessionEventInput, SessionId } from '@strand/session';
import type { FileReports } from './file-reports.js';
import type { ExportFacts } from './strand-export.js';

/**
 * One Strand session a transcript maps to: what the writer creates, extends or replaces.
 * `events` are the session's own events with their transcript times (a subagent child's
 * `subagent/descriptor` first).
 */
export interface SessionPlan {
  readonly header: NewSessionHeader;
  readonly events: readonly SessionEventInput[];
  readonly attachments: ReadonlyMap<string, Attachment>;
  /**
   * Set for a transcript forked from a parent: if the parent is stored, the child is seeded with
   * the parent's prefix up to the cut `cutIn` finds (a closed-turn boundary), like `planFork`;
   * otherwise it is an ordinary, unseeded session.
   */
  readonly fork?: {
    readonly parentId: SessionId;
    readonly cutIn: (parentEvents: readonly SessionEvent[]) => number | undefined;
  };
}

/**
 * The digests (`hashBytes`) of companion files the mapping read whole, by path: the run records
 * them in the ledger instead of reading each companion again — for a conversation kept as one
 * file per event, that second read cost as much as the mapping. A companion not in it is hashed
 * from disk.
 */
export type CompanionHashes = ReadonlyMap<string, string>;

/** The mapping of one source file. */
export type MappedFile =
  | {
      readonly kind: 'sessions';
      readonly plans: readonly SessionPlan[];
      readonly reports: FileReports;
      readonly hash: string;
      readonly companionHashes?: CompanionHashes | undefined;
      /** Every file of the unit's `writeOnceFolder` parsed whole (none cut mid-write). */
      readonly wholeFolder?: boolean | undefined;
      /** The file's first line carries Strand's export marker (`strand-export.ts`). */
      readonly strandExport?: ExportFacts | undefined;
    }
  /** Readable, but holds no session (no conversation records): a skipped file. */
  | {
      readonly kind: 'empty';
      readonly reason: string;
      readonly reports: FileReports;
      readonly hash: string;
      readonly companionHashes?: CompanionHashes | undefined;
      readonly wholeFolder?: boolean | undefined;
    }
  /** Unreadable as a whole (corrupt zstd, whole-JSON that does not parse): a failed file. */
  | { readonly kind: 'failed'; readonly reason: string; readonly reports: FileReports };
