import { defined } from '@strand/session';
import { LEDGER_FILE, Ledger, type LedgerEntry } from '../ledger/ledger.js';
import { combineHashes, stampUnit } from '../ledger/stamps.js';
import { staleCopyEntry } from '../run/choose-copies.js';
import type { SourceUnit } from '../run/harness-importer.js';
import { hashFile } from '../source/file-hash.js';
import type { Harness, ImportReport } from '../types.js';

/** What live ingest wrote from one file, to stamp it in the ledger. */
export interface WrittenFile {
  readonly harness: Harness;
  readonly unit: SourceUnit;
  /** Bytes of the file the write covers (a partial last line is not consumed). */
  readonly size: number;
  readonly mtimeMs: number;
  /** Digest of those bytes; the companions' are added here. */
  readonly hash: string;
  readonly primaryId: string;
  readonly rank: number;
  readonly sessions: readonly { readonly id: string; readonly events: number }[];
  readonly awaitingParent?: string | undefined;
}

/**
 * Live ingest's import ledger: the stamps of what it wrote, kept in memory and saved when the
 * ingest queue empties. Without a data folder there is no ledger and stamping does nothing. The
 * ledger only accelerates a restart: a failure to write it is a note, never a stop.
 */
export class LedgerSaver {
  readonly #report: (report: ImportReport) => void;
  #ledger: Ledger | undefined;
  #dirty = false;

  constructor(report: (report: ImportReport) => void) {
    this.#report = report;
  }

  async load(dataDir: string): Promise<void> {
    this.#ledger = (await Ledger.load(dataDir)).ledger;
  }

  get loaded(): boolean {
    return this.#ledger !== undefined;
  }

  get(file: string): LedgerEntry | undefined {
    return this.#ledger?.get(file);
  }

  /** The files of one harness under `root` that the ledger stamped. */
  filesUnder(root: string, harness: Harness): string[] {
    return this.#ledger === undefined ? [] : [...this.#ledger.under(root, harness)].map(([file]) => file);
  }

  /** Marks `file` a stale copy of `primaryId`: `winner` holds the session now. */
  markStale(file: string, primaryId: string, winner: string): void {
    const entry = this.#ledger?.get(file);
    if (entry === undefined) return;
    this.#ledger!.set(file, staleCopyEntry(entry, primaryId, winner));
    this.#dirty = true;
  }

  /** Stamps a file live ingest wrote; a file gone since is not stamped (its next event says so). */
  async stamp(written: WrittenFile): Promise<void> {
    if (this.#ledger === undefined) return;
    const stamps = await stampUnit(written.unit).catch(() => undefined);
    if (stamps === undefined) return;
    const companions: string[] = [];
    for (const c of stamps.companions) companions.push(await hashFile(c.path).catch(() => ''));
    this.#ledger.set(written.unit.file, {
      harness: written.harness,
      size: written.size,
      mtimeMs: written.mtimeMs,
      hash: combineHashes(written.hash, companions),
      companions: stamps.companions,
      primaryId: written.primaryId,
      rank: written.rank,
      sessions: written.sessions,
      ...defined({ awaitingParent: written.awaitingParent }),
    });
    this.#dirty = true;
  }

  /** Writes the ledger if anything changed since it was last saved. */
  async save(): Promise<void> {
    if (this.#ledger === undefined || !this.#dirty) return;
    this.#dirty = false;
    await this.#ledger
      .save()
      .catch((error: unknown) =>
        this.#report({ file: LEDGER_FILE, line: null, kind: 'note', reason: (error as Error).message }),
      );
  }
}
