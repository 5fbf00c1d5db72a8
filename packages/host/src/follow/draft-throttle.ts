/** A clock and timers, injectable so the draft rate is testable without waiting. */
export interface DraftClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realDraftClock: DraftClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Coalesces one session's drafts to at most one per `intervalMs`: the first goes out at once,
 * later ones inside the interval replace each other and the latest goes out when it ends. A draft
 * is the step's whole text so far, so dropping the ones in between loses nothing. `cancel` drops a
 * pending one: the step's `assistant/message` went out, and a draft after it would resurrect text
 * the log has settled.
 */
export class DraftThrottle {
  readonly #send: (step: number, text: string) => void;
  readonly #intervalMs: number;
  readonly #clock: DraftClock;
  #lastSentAt = Number.NEGATIVE_INFINITY;
  #pending: { readonly step: number; readonly text: string } | undefined;
  #timer: unknown;

  constructor(send: (step: number, text: string) => void, intervalMs: number, clock: DraftClock) {
    this.#send = send;
    this.#intervalMs = intervalMs;
    this.#clock = clock;
  }

  offer(step: number, text: string): void {
    const now = this.#clock.now();
    if (this.#timer === undefined && now - this.#lastSentAt >= this.#intervalMs) {
      this.#lastSentAt = now;
      this.#send(step, text);
      return;
    }
    this.#pending = { step, text };
    this.#timer ??= this.#clock.setTimeout(
      () => this.#flush(),
      Math.max(0, this.#lastSentAt + this.#intervalMs - now),
    );
  }

  /** Drops the pending draft, if any (the step ended, or nobody follows any more). */
  cancel(): void {
    this.#pending = undefined;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #flush(): void {
    this.#timer = undefined;
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending === undefined) return;
    this.#lastSentAt = this.#clock.now();
    this.#send(pending.step, pending.text);
  }
}
