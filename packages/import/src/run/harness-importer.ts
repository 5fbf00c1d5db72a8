import type { SessionId } from '@strand/session';
import type { MappedFile } from '../mapping/session-plan.js';
import type { TranscriptFold } from '../mapping/transcript-fold.js';
import type { Harness } from '../types.js';

/** A transcript file plus the companion files its mapping reads (a subagent's `.meta.json`). */
export interface SourceUnit {
  readonly file: string;
  readonly companions: readonly string[];
  /**
   * The transcript of the session the peek's `readsParent` names, found by content (the session
   * each file holds), never by name or path; set by the run when that transcript is known.
   */
  readonly parentFile?: string;
  /**
   * A folder holding the unit's file and companions that the harness writes once each, under a
   * new name, and never rewrites (OpenHands's `events/<n>.json`). Once every file of it was read
   * whole, the ledger keeps the folder as one stamp (`LedgerEntry.folder`): a new file changes
   * its listing and mtime, so its older files need not be statted on every re-import.
   */
  readonly writeOnceFolder?: string;
  /**
   * The write-once folder's stat, taken by discovery before it listed the folder (or in place of
   * listing it): what the ledger records for the folder, so a file the listing missed — created
   * after it — moves the folder away from the record.
   */
  readonly folderStat?: FolderStat;
  /**
   * Set where discovery did not list the write-once folder: its stat equals the ledger's record
   * of it (`RecalledFolder`), and `companions` hold only the files beside the folder. The run asks
   * `discover(writeOnceFolder)` for the unit listed before it reads any file of the folder.
   */
  readonly unlisted?: true;
}

/** What a unit's write-once folder's stat tells of its entries: when they last changed. */
export interface FolderStat {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/**
 * The ledger's record of a write-once folder whose stat may stand for its listing (its last
 * change lay well before the run that recorded it read the folder): the unit's file and the
 * folder's mtime and ctime then.
 */
export interface RecalledFolder extends FolderStat {
  readonly file: string;
}

/** The ledger's record of a write-once folder, by the folder's path; undefined for none. */
export type RecallFolder = (folder: string) => RecalledFolder | undefined;

/**
 * What a cheap look at a file's head tells: which session it is (so two copies of one session
 * can be told apart before either is mapped) and what it depends on.
 */
export type Peek =
  | {
      readonly kind: 'session';
      readonly primaryId: SessionId;
      /** Between copies of one session the higher rank wins, then the larger file, then the path. */
      readonly rank: number;
      /** A parent whose stored log this transcript is seeded from when present (a fork). */
      readonly forkParent?: SessionId;
      /** A session whose transcript the mapping reads (a child's labels and prompt in its parent). */
      readonly readsParent?: SessionId;
      /** Mapping order among forks: parents (lower depth) first. */
      readonly depth: number;
      /** Harness-specific facts the mapper reuses. */
      readonly facts: unknown;
    }
  /** Not a transcript of this harness (or an empty one): skipped, and remembered as such. */
  | { readonly kind: 'skip'; readonly reason: string; readonly line?: number }
  /** A transcript that cannot be read (corrupt compression): failed, and retried next run. */
  | { readonly kind: 'fail'; readonly reason: string };

export type SessionPeek = Extract<Peek, { kind: 'session' }>;

/** One harness: where its files live, how to recognise them, how to map them. */
export interface HarnessImporter {
  readonly harness: Harness;
  /**
   * The per-user folder the harness writes transcripts to; undefined for a harness that keeps them
   * per project (aider), whose folder must always be named.
   */
  defaultDir(home: string): string | undefined;
  /**
   * Every candidate transcript under `root`, sorted by path. Never follows symlinks. With
   * `recall`, a unit whose write-once folder's stat equals the recalled one may come `unlisted`;
   * a harness that does so gives the unit listed from `discover(writeOnceFolder)`.
   */
  discover(root: string, recall?: RecallFolder): Promise<SourceUnit[]>;
  /**
   * The unit of one file, told by its path alone, for a harness whose files have no companions:
   * live ingest asks it on every change under a watched folder instead of discovering the file's
   * folder again (aider watches whole project trees, where most changes are source files).
   * Undefined: not a candidate (nor one reached through a symlink below `root`). Absent: live
   * ingest discovers the file's folder.
   */
  unitOf?(root: string, file: string): Promise<SourceUnit | undefined>;
  peek(unit: SourceUnit): Promise<Peek>;
  map(unit: SourceUnit, peek: SessionPeek): Promise<MappedFile>;
  /**
   * `map` as a fold live ingest feeds appended lines to; undefined for a file that cannot be
   * read from an offset (a compressed rollout, a whole-JSON chat): such a file is mapped whole.
   */
  incremental(unit: SourceUnit, peek: SessionPeek): Promise<TranscriptFold | undefined>;
  /**
   * Live ingest: a change of a unit's companion is a change of the unit. Set where a write may
   * reach only a companion (a SQLite database's `-wal`, until a checkpoint moves it into the
   * database file); a transcript's companions (a subagent's `.meta.json`) are read with it anyway.
   */
  readonly companionChangesUnit?: boolean;
  /**
   * Live ingest: where a file's session (its id, whether it is a child) is told from its
   * companions' content, a change of a file peeks again the files it is a companion of, and reads
   * again whole any placed elsewhere now (Gemini chats sharing one `sessionId`).
   */
  readonly placedByCompanions?: boolean;
  /**
   * With `placedByCompanions`: what of `file` its companions' placement reads (a Gemini chat's
   * session, start, opening prompt and delegation calls), as a string live ingest compares between
   * changes; the companions are peeked again only when it changed, not on every streamed write.
   * Undefined when the file cannot be read as one. Absent: they are peeked on every change.
   */
  placementKey?(file: string): Promise<string | undefined>;
}
