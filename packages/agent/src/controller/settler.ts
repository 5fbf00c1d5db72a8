import type { LiveAgent } from './live-agent.js';
import type { GraceTimers } from './options.js';

/** The process's timers; a pending detach never keeps the process alive. */
const PROCESS_TIMERS: GraceTimers = {
  setTimeout: (fire, ms) => setTimeout(fire, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface SettlerDeps {
  /** Delay between settling and detaching; 0 detaches at once. */
  readonly idleDetachMs: number;
  /** Default: the process's timers. */
  readonly timers?: GraceTimers;
  /** `SessionPersistence.flush`, reporting (not throwing) a failure. */
  flush(): Promise<void>;
  detach(agent: LiveAgent): void;
  /** The cache write policy: a detach waits for the row it writes. */
  readonly cacheWrites: { drain(): Promise<void> } | undefined;
  isClosed(): boolean;
}

/**
 * Decides when an agent leaves the store. An agent may detach when it is attached, idle, holds no
 * lease and its session has at least one event (a blank session is not stored yet: detaching it
 * would lose it). A settle attempt remembers the agent's `activity` and gives up if anything
 * happened meanwhile — a prompt or a lease during the grace period or the flush keeps it attached;
 * the next idle moment tries again.
 */
export class Settler {
  readonly #deps: SettlerDeps;
  readonly #timers = new Map<unknown, () => void>();

  constructor(deps: SettlerDeps) {
    this.#deps = deps;
  }

  canDetach(agent: LiveAgent): boolean {
    return agent.attached && agent.status === 'idle' && agent.leases === 0 && agent.session.cursor > 0;
  }

  /** Flushes, then detaches `agent` unless it was used since `activity` was read. */
  async settle(agent: LiveAgent, activity: number): Promise<void> {
    const unchanged = (): boolean =>
      !this.#deps.isClosed() && agent.activity === activity && this.canDetach(agent);
    if (this.#deps.idleDetachMs > 0) await this.#grace();
    if (!unchanged()) return;
    await this.#deps.flush();
    if (!unchanged()) return;
    this.#deps.detach(agent);
    await this.#deps.cacheWrites?.drain();
  }

  /** Ends every grace period now (shutdown). */
  wakeAll(): void {
    for (const [handle, wake] of this.#timers) {
      (this.#deps.timers ?? PROCESS_TIMERS).clearTimeout(handle);
      wake();
    }
    this.#timers.clear();
  }

  #grace(): Promise<void> {
    return new Promise((resolve) => {
      const handle = (this.#deps.timers ?? PROCESS_TIMERS).setTimeout(() => {
        this.#timers.delete(handle);
        resolve();
      }, this.#deps.idleDetachMs);
      this.#timers.set(handle, resolve);
    });
  }
}
