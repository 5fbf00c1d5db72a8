import { promises as fsp } from 'node:fs';
import { byPreference, chooseCopies, notImportedReason, type Candidate } from '../run/choose-copies.js';
import type { SessionPeek } from '../run/harness-importer.js';
import type { ImportReport } from '../types.js';
import type { LedgerSaver } from './ledger-saver.js';

/**
 * Which file live ingest reads for each session. Of two files that are one session (Gemini CLI
 * starts a stub file when it resumes a chat in a later minute), the one the one-shot import would
 * choose (`byPreference`) is read; the other is reported once as a copy, and read only once it is
 * preferred.
 */
export class CopyHolders {
  readonly #ledger: LedgerSaver;
  readonly #report: (report: ImportReport) => void;
  /** Stops following a file (its next change is compared with what is stored again). */
  readonly #forget: (file: string) => void;
  /** Primary session id → the copy of it that is imported, and its rank. */
  readonly #holders = new Map<string, { readonly file: string; readonly rank: number }>();
  /**
   * A file preferred at start over another file the ledger said held its session → that copy,
   * until the file is read: the write's report names both (a second copy is not a rewrite).
   */
  readonly #displaced = new Map<string, string>();
  /** Copies already reported as such, so a stale copy that keeps changing is one note. */
  readonly #reportedCopies = new Set<string>();

  constructor(ledger: LedgerSaver, report: (report: ImportReport) => void, forget: (file: string) => void) {
    this.#ledger = ledger;
    this.#report = report;
    this.#forget = forget;
  }

  /**
   * Whether `file` is the copy of its session to import: no other file holds the session, or the
   * one that does is gone or no longer preferred. False when it is not: it is reported once, and
   * read again when it changes. Otherwise the copy it takes the session over from, if any: that
   * one stops being followed and is a stale copy in the ledger, so a restart does not take it back.
   */
  async hold(file: string, peek: SessionPeek, size: number): Promise<false | string | undefined> {
    const primaryId = peek.primaryId;
    const holder = this.#holders.get(primaryId);
    let from = this.#displaced.get(file);
    if (holder !== undefined && holder.file !== file) {
      const held = await fsp.stat(holder.file).catch(() => undefined);
      const self = { file, primaryId, rank: peek.rank, size };
      if (held !== undefined && byPreference({ ...holder, primaryId, size: held.size }, self) < 0) {
        if (!this.#reportedCopies.has(file)) {
          this.#reportedCopies.add(file);
          this.#report({
            file,
            line: null,
            kind: 'skipped-file',
            reason: notImportedReason(primaryId, holder.file),
          });
        }
        return false;
      }
      this.#forget(holder.file);
      from = holder.file;
      this.#ledger.markStale(holder.file, primaryId, file);
    }
    this.#reportedCopies.delete(file);
    this.#holders.set(primaryId, { file, rank: peek.rank });
    this.#displaced.delete(file);
    return from;
  }

  /**
   * The holder of each session the ledger names, by the one-shot import's choice. Two files that
   * both claim one (a ledger from before live ingest marked the copies it dropped) may have left
   * the stored log as the other copy wrote it: the other is marked a stale copy, and the preferred
   * ones returned, to be read again and compared with the stored log (`writePlan`).
   */
  holdClaimed<C extends Candidate>(claims: readonly C[]): C[] {
    const choice = chooseCopies(claims, new Map());
    for (const c of claims)
      if (choice.winners.has(c.file)) this.#holders.set(c.primaryId, { file: c.file, rank: c.rank });
    const reread: C[] = [];
    for (const loser of choice.losers) {
      const winner = claims.find((c) => c.file === loser.winner)!;
      this.#ledger.markStale(loser.file, loser.primaryId, winner.file);
      this.#displaced.set(winner.file, loser.file);
      reread.push(winner);
    }
    return reread;
  }
}
