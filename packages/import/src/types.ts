import type { SessionDigestOption } from './run/session-digest.js';

/**
 * The harnesses whose transcripts this package reads: the `strand import` choices. A closed list,
 * unlike the open vocabulary of a header's `source.harness` (`@strand/session`): each name needs
 * an importer (`harnesses.ts` maps every one, so a name without one fails to compile).
 */
export const IMPORT_HARNESSES = [
  'claude-code',
  'codex',
  'gemini',
  'pi',
  'aider',
  'opencode',
  'qwen',
  'crush',
  'copilot',
  'goose',
  'openhands',
  'kilo',
  'cline',
  'roo',
  'cursor',
] as const;
export type Harness = (typeof IMPORT_HARNESSES)[number];

export function isHarness(value: unknown): value is Harness {
  return typeof value === 'string' && (IMPORT_HARNESSES as readonly string[]).includes(value);
}

/**
 * One problem found while importing, always tied to a source file. `line` is 1-based; `null`
 * means the file as a whole.
 * - `skipped-record`: a malformed line, or a record of a type the mapping does not know (one
 *   report per type per file, with the count), passed over.
 * - `skipped-file`: a file that holds no importable session (not a transcript, empty, or a stale
 *   copy of a session another file holds in full).
 * - `failed`: a file that could not be imported; nothing of it was written.
 * - `replaced`: a stored session diverged from its transcript and was created again.
 * - `note`: something worth knowing that changed nothing (e.g. a subagent whose parent is absent).
 */
export interface ImportReport {
  readonly file: string;
  readonly line: number | null;
  readonly kind: 'skipped-record' | 'skipped-file' | 'failed' | 'replaced' | 'note';
  readonly reason: string;
}

/** What happened to one Strand session. */
export type SessionOutcome = 'imported' | 'appended' | 'replaced' | 'unchanged';

export interface ImportedSession {
  readonly id: string;
  readonly file: string;
  readonly outcome: SessionOutcome;
}

/**
 * The result of one run. Counts are sessions except `skipped` (records and files passed over),
 * `ignored` (known records with nothing for the event log, by the harness's type name — a
 * request log line, a context attachment) and `failed` (source files). `updated` includes
 * `replaced`.
 */
export interface ImportSummary {
  readonly imported: number;
  readonly updated: number;
  readonly replaced: number;
  readonly unchanged: number;
  readonly skipped: number;
  readonly ignored: Readonly<Record<string, number>>;
  readonly failed: number;
  readonly files: number;
  readonly reports: readonly ImportReport[];
  /** Sessions touched or confirmed by this run (not those of unchanged files, which were not read). */
  readonly sessions: readonly ImportedSession[];
}

export type ImportProgress = (done: number, total: number, currentFile: string) => void;

export interface ImportOptions {
  readonly harness: Harness;
  /** The folder to read transcripts from (recursively). It is never written to. */
  readonly sourceDir: string;
  /** The Strand data folder (JSONL persistence root); the ledger lives at `<dataDir>/import-ledger.json`. */
  readonly dataDir: string;
  readonly onProgress?: ImportProgress;
  /** Source files each lane maps and writes at once (default 4). */
  readonly concurrency?: number;
  /**
   * Worker threads that map and write beside the calling thread. Default: for a large import
   * (≥ 32 MB of changed transcripts) one per further CPU core, up to 3; none otherwise.
   */
  readonly workers?: number;
  /** Log compression of newly created sessions (default `zstd`, the persistence default). */
  readonly compression?: 'zstd' | 'none';
  /**
   * A per-session digest, computed in the lane that wrote each session from the log it holds
   * (see `run/session-digest.ts`): how the CLI writes projection cache rows without reading every
   * imported log back.
   */
  readonly digest?: SessionDigestOption;
  /**
   * The clock (default `Date.now`), read once as the run starts: a write-once folder whose last
   * change lies less than a timestamp granule before it is listed again by the next run
   * (`standsForListing`).
   */
  readonly now?: () => number;
}
