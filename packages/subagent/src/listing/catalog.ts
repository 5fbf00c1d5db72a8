import type { CorpusRow } from '@strand/query';
import type { Session, SessionHeader, SessionId } from '@strand/session';
import type { ListingSessions } from './types.js';

/** One enumerated subagent session: header facts only, nothing read from its log. */
export interface Candidate {
  readonly id: SessionId;
  /** The live header when the session is attached, else the persisted one (live wins, unchecked). */
  readonly header: SessionHeader;
  /** The attached Session, when live: the child is `running`. */
  readonly live: Session | undefined;
  /** The persistence incarnation (the cache identity), when known. */
  readonly incarnation: string | undefined;
}

/** createdAt ascending, then id in code-unit order (the `<` of JS strings). */
function byCreationThenId(a: Candidate, b: Candidate): number {
  if (a.header.createdAt !== b.header.createdAt) return a.header.createdAt - b.header.createdAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The subagent sessions of the corpus, indexed by parent. Built from the query's live-preferred
 * corpus paired with the live store: for an id with an attached Session, the live header is
 * the one that counts (filtering, ordering, witness). Only `origin: 'subagent'` sessions with a
 * `parentSession` are children; ordinary forks are not. A parent nobody names has no children —
 * an unknown parent is an empty list, not an error.
 */
export class SubagentCatalog {
  readonly #byParent = new Map<SessionId, Candidate[]>();

  constructor(rows: readonly CorpusRow[], sessions: ListingSessions) {
    for (const row of rows) {
      const live = sessions.get(row.header.id);
      const header = live?.header ?? row.header;
      const parent = header.parentSession;
      // A session is never its own child, whatever its header says.
      if (header.origin !== 'subagent' || parent === undefined || parent === header.id) continue;
      const candidate: Candidate = {
        id: header.id,
        header,
        live,
        incarnation: live?.incarnation ?? row.incarnation,
      };
      const siblings = this.#byParent.get(parent);
      if (siblings === undefined) this.#byParent.set(parent, [candidate]);
      else siblings.push(candidate);
    }
    for (const siblings of this.#byParent.values()) siblings.sort(byCreationThenId);
  }

  /** The direct subagent children of `parentId`, in listing order. */
  childrenOf(parentId: SessionId): readonly Candidate[] {
    return this.#byParent.get(parentId) ?? [];
  }

  /** Whether `id` has a direct subagent child — from headers only, no log of anyone is read. */
  hasChildren(id: SessionId): boolean {
    return this.#byParent.has(id);
  }
}
