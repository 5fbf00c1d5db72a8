import type { ImportReport } from '../types.js';

/** Reports kept per file and reason kind; the rest are counted in one closing report. */
const MAX_REPORTS_PER_FILE = 50;

/**
 * The reports of one source file. Every skipped record counts toward `skipped`, but a file full
 * of bad lines yields at most {@link MAX_REPORTS_PER_FILE} reports plus one that says how many
 * more were skipped, so one broken file cannot flood the summary.
 *
 * Two kinds of record are not conversation and are told apart: **ignored** ones, which the
 * mapping knows and has no place for (a harness's request log, its context attachments), are
 * only counted, per type; **unknown** ones, of a type the mapping has never seen, are reported
 * once per type per file with how many there were — the signal that a harness changed its format.
 */
export class FileReports {
  readonly #file: string;
  /** In line order; an unknown type's report is placed at its first record and counts the rest. */
  readonly #reports: (ImportReport | UnknownType)[] = [];
  readonly #ignored = new Map<string, number>();
  readonly #unknown = new Map<string, UnknownType>();
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

  /** Known records with nothing for the event log, by type. */
  get ignored(): ReadonlyMap<string, number> {
    return this.#ignored;
  }

  /** A line passed over: malformed, torn, a duplicate. */
  skipRecord(line: number | null, reason: string): void {
    this.#skippedRecords++;
    if (this.#reports.length < MAX_REPORTS_PER_FILE)
      this.#reports.push({ file: this.#file, line, kind: 'skipped-record', reason });
    else this.#unreported++;
  }

  /** A record the mapping knows and leaves out (`type`: the harness's name for it). */
  ignore(type: string): void {
    this.#ignored.set(type, (this.#ignored.get(type) ?? 0) + 1);
  }

  /**
   * A record of a type the mapping does not know (`what`: e.g. `record type "x"`). It is skipped;
   * the file gets one report per type, naming the first line and the count.
   */
  unknown(line: number | null, what: string): void {
    this.#skippedRecords++;
    const seen = this.#unknown.get(what);
    if (seen !== undefined) {
      seen.count++;
      return;
    }
    const entry: UnknownType = { what, line, count: 1 };
    this.#unknown.set(what, entry);
    this.#reports.push(entry);
  }

  note(line: number | null, reason: string): void {
    this.#reports.push({ file: this.#file, line, kind: 'note', reason });
  }

  list(): ImportReport[] {
    const listed = this.#reports.map(
      (r): ImportReport =>
        'what' in r
          ? {
              file: this.#file,
              line: r.line,
              kind: 'skipped-record',
              reason: `unknown ${r.what}${r.count > 1 ? ` (${r.count} records; the first at this line)` : ''}`,
            }
          : r,
    );
    if (this.#unreported === 0) return listed;
    return [
      ...listed,
      {
        file: this.#file,
        line: null,
        kind: 'skipped-record',
        reason: `${this.#unreported} more skipped records not listed`,
      },
    ];
  }
}

interface UnknownType {
  readonly what: string;
  readonly line: number | null;
  count: number;
}
