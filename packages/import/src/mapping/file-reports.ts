import type { ImportReport } from '../types.js';

/** Reports kept per file and reason kind; the rest are counted in one closing report. */
const MAX_REPORTS_PER_FILE = 50;

/**
 * The reports of one source file. Every skipped record counts toward `skipped`, but a file full
 * of bad lines yields at most {@link MAX_REPORTS_PER_FILE} reports plus one that says how many
 * more were skipped, so one broken file cannot flood the summary.
 */
export class FileReports {
  readonly #file: string;
  readonly #reports: ImportReport[] = [];
  #skippedRecords = 0;
  #unreported = 0;

  constructor(file: string) {
    this.#file = file;
  }

  get file(): string {
    return this.#file;
  }

  get skippedRecords(): number {
    return this.#skippedRecords;
  }

  /** A line passed over: malformed, torn, an unknown record type, a duplicate. */
  skipRecord(line: number | null, reason: string): void {
    this.#skippedRecords++;
    if (this.#reports.length < MAX_REPORTS_PER_FILE)
      this.#reports.push({ file: this.#file, line, kind: 'skipped-record', reason });
    else this.#unreported++;
  }

  note(line: number | null, reason: string): void {
    this.#reports.push({ file: this.#file, line, kind: 'note', reason });
  }

  list(): ImportReport[] {
    if (this.#unreported === 0) return [...this.#reports];
    return [
      ...this.#reports,
      {
        file: this.#file,
        line: null,
        kind: 'skipped-record',
        reason: `${this.#unreported} more skipped records not listed`,
      },
    ];
  }
}
