import type { SessionId } from '@strand/session';

/**
 * Who may run an agent on a session when several hosts share one corpus (a lease in a shared
 * database). The controller takes ownership before it attaches an agent — before any write the
 * attachment makes — and gives it back after the agent detached. A single-host runtime uses
 * `LOCAL_OWNERSHIP`: the live store already guarantees one agent per session in one process.
 */
export interface SessionOwnership {
  /**
   * Takes (or counts one more use of) this host's ownership of `id`. Rejects with the port's own
   * typed error when another host owns it; the controller passes that error on unchanged.
   */
  acquire(id: SessionId): Promise<void>;
  /** Gives one use back; the last one frees the session for other hosts. */
  release(id: SessionId): Promise<void>;
  /**
   * Ownership lost without a release (a lease that could not be renewed): the controller cancels
   * the session's turn and detaches its agent — another host may already be writing.
   */
  onLost(listener: (id: SessionId) => void): () => void;
}

/** One process, one store: nothing to coordinate. */
export const LOCAL_OWNERSHIP: SessionOwnership = Object.freeze({
  acquire: () => Promise.resolve(),
  release: () => Promise.resolve(),
  onLost: () => () => undefined,
});
