import type { LedgerEntry } from '../ledger/ledger.js';

export interface Candidate {
  readonly file: string;
  readonly primaryId: string;
  readonly rank: number;
  readonly size: number;
}

export interface CopyChoice {
  /** Changed files to map and write. */
  readonly winners: ReadonlySet<string>;
  /** Files (changed or not) that are stale copies of a session another file holds. */
  readonly losers: readonly { readonly file: string; readonly primaryId: string; readonly winner: string }[];
}

/**
 * The order copies of one session are preferred in: the highest rank (the harness's newer
 * format), then the largest file (append-only logs only grow), then the first path. Negative when
 * `a` is preferred. Live ingest decides between copies with the same order, so a watched folder
 * ends as a one-shot import of it would.
 */
export function byPreference(a: Candidate, b: Candidate): number {
  return b.rank - a.rank || b.size - a.size || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
}

/** Why a copy was passed over: the same words from a run and from live ingest. */
export function notImportedReason(primaryId: string, winner: string): string {
  return `another copy of session ${primaryId} holds more (${winner}); this copy was not imported`;
}

/**
 * The ledger entry of a copy another file holds the session for: it holds no session, and later
 * runs and live ingest (at its start) do not take it for the session's holder.
 */
export function staleCopyEntry(entry: LedgerEntry, primaryId: string, winner: string): LedgerEntry {
  return { ...entry, sessions: [], primaryId, duplicateOf: winner };
}

/**
 * Two files can be one session: a transcript copied at two times (the earlier copy a prefix of
 * the later), or a whole-JSON chat migrated to JSONL. Importing both would make the session
 * flip between them on every run, so per session one copy is imported: the highest rank (the
 * harness's newer format), then the largest file (append-only logs only grow), then the first
 * path. Unchanged files that still hold a session take part, so a changed stale copy never
 * displaces a current one.
 */
export function chooseCopies(
  changed: readonly Candidate[],
  unchanged: ReadonlyMap<string, LedgerEntry>,
): CopyChoice {
  const groups = new Map<string, Candidate[]>();
  for (const c of changed) {
    const group = groups.get(c.primaryId);
    if (group === undefined) groups.set(c.primaryId, [c]);
    else group.push(c);
  }
  for (const [file, entry] of unchanged) {
    if (entry.primaryId === undefined || entry.duplicateOf !== undefined) continue;
    groups
      .get(entry.primaryId)
      ?.push({ file, primaryId: entry.primaryId, rank: entry.rank ?? 0, size: entry.size });
  }
  const changedFiles = new Set(changed.map((c) => c.file));
  const winners = new Set<string>();
  const losers: { file: string; primaryId: string; winner: string }[] = [];
  for (const [primaryId, group] of groups) {
    group.sort(byPreference);
    const [best, ...rest] = group;
    if (changedFiles.has(best!.file)) winners.add(best!.file);
    for (const other of rest) losers.push({ file: other.file, primaryId, winner: best!.file });
  }
  return { winners, losers };
}
