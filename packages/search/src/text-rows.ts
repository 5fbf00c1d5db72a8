import type Database from 'better-sqlite3';

/** Seqs occupy the low 32 bits of a rowid (see schema.ts); a longer log is not indexable past it. */
export const MAX_INDEXED_SEQ = 0xffff_ffff;

/** Write-side statements over the FTS table. Callers own the transactions. */
export class TextRows {
  readonly #insert: Database.Statement<[number, number, string]>;
  readonly #deleteFrom: Database.Statement<[number, number, number]>;
  readonly #insertLabel: Database.Statement<[number, number, string]>;
  readonly #deleteLabelsFrom: Database.Statement<[number, number, number]>;
  readonly #deleteTextBelow: Database.Statement<[number, number, number]>;

  constructor(db: Database.Database) {
    // The rowid is computed by SQLite: sid << 32 exceeds 2^53 (a JS number) for large sids.
    this.#insert = db.prepare('INSERT INTO search_text (rowid, text) VALUES ((? << 32) | ?, ?)');
    this.#deleteFrom = db.prepare(
      'DELETE FROM search_text WHERE rowid >= ((? << 32) | ?) AND rowid < ((? + 1) << 32)',
    );
    this.#deleteTextBelow = db.prepare(
      'DELETE FROM search_text WHERE rowid >= (? << 32) AND rowid < ((? << 32) | ?)',
    );
    this.#insertLabel = db.prepare('INSERT INTO search_labels (rowid, text) VALUES ((? << 32) | ?, ?)');
    this.#deleteLabelsFrom = db.prepare(
      'DELETE FROM search_labels WHERE rowid >= ((? << 32) | ?) AND rowid < ((? + 1) << 32)',
    );
  }

  insertLabel(sid: number, seq: number, text: string): void {
    this.#insertLabel.run(sid, seq, text);
  }

  insert(sid: number, seq: number, text: string): void {
    this.#insert.run(sid, seq, text);
  }

  /**
   * Deletes the session's text and label rows with `seq >= fromSeq` (all of them for 0): a label
   * obeys the same cut as text, so a label set from memory that never became durable goes too.
   */
  /** Deletes the session's text rows (not its labels) with `seq < belowSeq`: no longer its own. */
  deleteTextBelow(sid: number, belowSeq: number): void {
    this.#deleteTextBelow.run(sid, sid, belowSeq);
  }

  deleteFrom(sid: number, fromSeq: number): void {
    this.#deleteFrom.run(sid, fromSeq, sid);
    this.#deleteLabelsFrom.run(sid, fromSeq, sid);
  }
}
