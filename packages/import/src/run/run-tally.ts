import type { ImportedSession, ImportReport, ImportSummary, SessionOutcome } from '../types.js';

/** Counters and reports of one run; turned into the summary at the end. */
export class RunTally {
  #imported = 0;
  #updated = 0;
  #replaced = 0;
  #unchanged = 0;
  #skipped = 0;
  #failed = 0;
  readonly #reports: ImportReport[] = [];
  readonly #ignored = new Map<string, number>();
  readonly #sessions: ImportedSession[] = [];

  constructor(readonly files: number) {}

  session(id: string, file: string, outcome: SessionOutcome): void {
    this.#sessions.push({ id, file, outcome });
    if (outcome === 'imported') this.#imported++;
    else if (outcome === 'unchanged') this.#unchanged++;
    else {
      this.#updated++;
      if (outcome === 'replaced') {
        this.#replaced++;
        this.#reports.push({
          file,
          line: null,
          kind: 'replaced',
          reason: `session ${id} diverged from its transcript; deleted and created again as a new incarnation`,
        });
      }
    }
  }

  /** Sessions of a file the ledger says is unchanged (not read this run). */
  unchangedSessions(count: number): void {
    this.#unchanged += count;
  }

  /**
   * The reports of one file; `skippedRecords` counts every skipped record, listed or not;
   * `ignored` counts the known records left out, by type.
   */
  fileReports(
    skippedRecords: number,
    reports: readonly ImportReport[],
    ignored: Readonly<Record<string, number>> = {},
  ): void {
    this.#skipped += skippedRecords;
    this.#reports.push(...reports);
    for (const [type, count] of Object.entries(ignored))
      this.#ignored.set(type, (this.#ignored.get(type) ?? 0) + count);
  }

  skippedFile(file: string, reason: string, line: number | null = null): void {
    this.#skipped++;
    this.#reports.push({ file, line, kind: 'skipped-file', reason });
  }

  failedFile(file: string, reason: string, line: number | null = null): void {
    this.#failed++;
    this.#reports.push({ file, line, kind: 'failed', reason });
  }

  note(file: string, reason: string): void {
    this.#reports.push({ file, line: null, kind: 'note', reason });
  }

  summary(): ImportSummary {
    return {
      imported: this.#imported,
      updated: this.#updated,
      replaced: this.#replaced,
      unchanged: this.#unchanged,
      skipped: this.#skipped,
      ignored: Object.fromEntries([...this.#ignored].sort(([a], [b]) => a.localeCompare(b))),
      failed: this.#failed,
      files: this.files,
      reports: this.#reports,
      sessions: this.#sessions,
    };
  }
}
