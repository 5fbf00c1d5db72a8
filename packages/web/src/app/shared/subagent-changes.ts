/**
 * Which sessions' subagent rows may have changed, as the open followers hear it
 * (`SessionFollower.onSubagents`: a `follow.subagents` frame, or a newly accepted generation).
 * The subagent panel lists again on it; nothing here looks at events or rows. One per `Strand`
 * (not module state), so two UIs in one page never hear each other.
 */
export class SubagentChanges {
  readonly #listeners = new Map<string, Set<() => void>>();

  /** `sessionId`'s children (or deeper descendants) appeared or settled. */
  announce(sessionId: string): void {
    const listeners = this.#listeners.get(sessionId);
    if (listeners === undefined) return;
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        // One broken panel must not keep the others from listing again.
        console.error('strand web: a subagent listener threw', error);
      }
    }
  }

  subscribe(sessionId: string, listener: () => void): () => void {
    let listeners = this.#listeners.get(sessionId);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(sessionId, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(sessionId) === listeners)
        this.#listeners.delete(sessionId);
    };
  }
}
