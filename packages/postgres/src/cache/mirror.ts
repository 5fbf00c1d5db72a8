import { LRUCache } from 'lru-cache';
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
 * What the mirror holds of one session id. `complete`: every row the database held when it was
 * loaded (with this process's later changes laid over), so a key absent here is absent there.
 * Not complete: only rows this process put since — valid checkpoints, served, but others may exist.
 */
export interface HeldSession {
  readonly identities: readonly IdentityRows[];
  readonly complete: boolean;
}

/** How much the mirror may hold: whichever bound is reached first evicts the least recently used session. */
export interface MirrorBounds {
  /** Session ids held at most (default 20,000). */
  readonly maxSessions: number;
  /** Estimated bytes of the rows held at most (default 64 MiB): JavaScript strings, two bytes per unit. */
  readonly maxBytes: number;
}

export const DEFAULT_MIRROR_BOUNDS: MirrorBounds = { maxSessions: 20_000, maxBytes: 64 * 1024 * 1024 };

/** Rough per-object costs of V8 (headers, array slots, numbers), so an empty session still counts. */
const SESSION_OVERHEAD = 120;
const IDENTITY_OVERHEAD = 80;
const ROW_OVERHEAD = 64;

/** The bytes a held session is estimated to cost: its strings at two bytes per unit plus object overheads. */
export function heldBytes(held: HeldSession): number {
  let bytes = SESSION_OVERHEAD;
  for (const identity of held.identities) {
    bytes += IDENTITY_OVERHEAD + identity.incarnation.length * 2;
    for (const row of identity.rows) bytes += ROW_OVERHEAD + (row[0].length + row[3].length) * 2;
  }
  return bytes;
}

const NOT_HELD: readonly CacheRow[] = [];

/**
 * The cache rows of the sessions read lately, held in memory so reads stay synchronous, within
 * `MirrorBounds` (least recently used sessions are evicted: the database still holds them, and the
 * next load brings them back). Arrays are never mutated once stored (a change replaces them), so a
 * read can hand out the stored array itself.
 *
 * `apply` follows the same rules as the SQL write: other identities of the id are dropped, and a
 * row never moves back to an older cut of the same stateVersion.
 */
export class RowMirror {
  readonly #sessions: LRUCache<string, HeldSession>;

  constructor(bounds: MirrorBounds = DEFAULT_MIRROR_BOUNDS) {
    this.#sessions = new LRUCache<string, HeldSession>({
      max: bounds.maxSessions,
      maxSize: bounds.maxBytes,
      sizeCalculation: heldBytes,
    });
  }

  /** What is held of `sessionId` (and marks it recently used), or `undefined` when nothing is. */
  held(sessionId: string): HeldSession | undefined {
    return this.#sessions.get(sessionId);
  }

  /** Whether anything is held of `sessionId`, without marking it used. */
  holds(sessionId: string): boolean {
    return this.#sessions.has(sessionId);
  }

  /** The rows of exactly this identity among what is held (none when nothing is). */
  read(sessionId: string, incarnation: string, inheritedCut: number): readonly CacheRow[] {
    return rowsOf(this.held(sessionId), incarnation, inheritedCut);
  }

  apply(change: RowChange): void {
    if (change.kind === 'forget') {
      // The database holds none once the forget commits: known, so a read needs no load.
      this.#sessions.set(change.sessionId, { identities: [], complete: true });
      return;
    }
    const held = this.#sessions.get(change.sessionId);
    const rows = [...rowsOf(held, change.incarnation, change.inheritedCut)];
    for (const incoming of change.rows) {
      const at = rows.findIndex((row) => row[0] === incoming[0]);
      const current = rows[at];
      if (current === undefined) rows.push(incoming);
      else if (incoming[2] >= current[2] || incoming[1] !== current[1]) rows[at] = incoming;
    }
    this.#sessions.set(change.sessionId, {
      identities: [{ incarnation: change.incarnation, inheritedCut: change.inheritedCut, rows }],
      complete: held?.complete ?? false,
    });
  }

  /** Holds what the database holds for these session ids (absent there: held as none), complete. */
  replaceSessions(sessionIds: readonly string[], stored: ReadonlyMap<string, readonly IdentityRows[]>): void {
    for (const id of sessionIds) this.#sessions.set(id, { identities: stored.get(id) ?? [], complete: true });
  }

  /** The session ids held, most recently used first. */
  heldIds(): string[] {
    return [...this.#sessions.keys()];
  }

  /** Session ids held (for diagnostics and the memory bound). */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** The estimated bytes held (`heldBytes` summed). */
  get bytes(): number {
    return this.#sessions.calculatedSize;
  }
}

function rowsOf(
  held: HeldSession | undefined,
  incarnation: string,
  inheritedCut: number,
): readonly CacheRow[] {
  if (held === undefined) return NOT_HELD;
  for (const identity of held.identities) {
    if (identity.incarnation === incarnation && identity.inheritedCut === inheritedCut) return identity.rows;
  }
  return NOT_HELD;
}
