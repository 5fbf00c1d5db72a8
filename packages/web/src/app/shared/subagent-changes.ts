import { KeyedListeners } from '@strand/client';

/**
 * Which sessions' subagent rows may have changed, as the open followers hear it
 * (`SessionFollower.onSubagents`: a `follow.subagents` frame, or a newly accepted generation).
 * The subagent panel lists again on it; nothing here looks at events or rows. Per session id on
 * the client's `KeyedListeners`, as the projection store's subscribers are (a throwing listener
 * is reported and the others still hear it; a session whose last listener left is forgotten).
 * One per `Strand` (not module state), so two UIs in one page never hear each other.
 */
export class SubagentChanges {
  readonly #listeners: KeyedListeners<string>;

  /** `report` hears a listener's exception (one broken panel must not keep the others from listing). */
  constructor(
    report: (error: unknown) => void = (error) =>
      console.error('strand web: a subagent listener threw', error),
  ) {
    this.#listeners = new KeyedListeners(report);
  }

  /** Sessions with a listener now (each forgotten when its last listener leaves). */
  get size(): number {
    return this.#listeners.size;
  }

  /** `sessionId`'s children (or deeper descendants) appeared or settled. */
  announce(sessionId: string): void {
    this.#listeners.emit(sessionId, sessionId);
  }

  subscribe(sessionId: string, listener: () => void): () => void {
    return this.#listeners.subscribe(sessionId, () => listener());
  }
}
