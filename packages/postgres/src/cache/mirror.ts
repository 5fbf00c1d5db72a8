import type { CacheRow, ListIndexRow } from '@strand/projection-cache';

/**
 * A change to the rows of one session id, applied to the mirror at once and to PostgreSQL later.
 * A put's `listRow` is written in the same transaction as its rows (the mirror ignores it: list
 * rows are read from the database).
 */
export type RowChange =
  | {
      readonly kind: 'put';
      readonly sessionId: string;
      readonly incarnation: string;
      readonly inheritedCut: number;
      readonly rows: readonly CacheRow[];
      readonly listRow?: ListIndexRow | undefined;
    }
  | { readonly kind: 'forget'; readonly sessionId: string };

/** The rows of one identity of a session id. */
export interface IdentityRows {
  readonly incarnation: string;
  readonly inheritedCut: number;
  readonly rows: readonly CacheRow[];
}

/**
 * Every cache row of the database, held in memory so reads stay synchronous. Arrays are never
 * mutated once stored (a change replaces them), so a read can hand out the stored array itself.
 *
 * `apply` follows the same rules as the SQL write: other identities of the id are dropped, and a
 * row never moves back to an older cut of the same stateVersion.
 */
export class RowMirror {
  #sessions = new Map<string, readonly IdentityRows[]>();

  read(sessionId: string, incarnation: string, inheritedCut: number): readonly CacheRow[] {
    const identities = this.#sessions.get(sessionId);
    if (identities === undefined) return [];
    for (const identity of identities) {
      if (identity.incarnation === incarnation && identity.inheritedCut === inheritedCut)
        return identity.rows;
    }
    return [];
  }

  apply(change: RowChange): void {
    if (change.kind === 'forget') {
      this.#sessions.delete(change.sessionId);
      return;
    }
    const stored = this.read(change.sessionId, change.incarnation, change.inheritedCut);
    const rows = [...stored];
    for (const incoming of change.rows) {
      const at = rows.findIndex((row) => row[0] === incoming[0]);
      const current = rows[at];
      if (current === undefined) rows.push(incoming);
      else if (incoming[2] >= current[2] || incoming[1] !== current[1]) rows[at] = incoming;
    }
    this.#sessions.set(change.sessionId, [
      { incarnation: change.incarnation, inheritedCut: change.inheritedCut, rows },
    ]);
  }

  /** Replaces what is held for these session ids with what the database holds (absent: none). */
  replaceSessions(sessionIds: readonly string[], stored: ReadonlyMap<string, readonly IdentityRows[]>): void {
    for (const id of sessionIds) {
      const identities = stored.get(id);
      if (identities === undefined) this.#sessions.delete(id);
      else this.#sessions.set(id, identities);
    }
  }

  /** Replaces everything with what the database holds. */
  replaceAll(stored: Map<string, readonly IdentityRows[]>): void {
    this.#sessions = stored;
  }

  /** Session ids held (for diagnostics and the memory bound). */
  get sessionCount(): number {
    return this.#sessions.size;
  }
}
