/**
 * A clock whose time moves only when a test calls `advance`: timers due by then fire in due
 * order, each seeing `now()` at its due time. Shaped like the host's `DraftClock`.
 */
export class ManualClock {
  #at = 0;
  readonly #timers = new Map<number, { readonly due: number; readonly callback: () => void }>();
  #next = 0;

  now(): number {
    return this.#at;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = ++this.#next;
    this.#timers.set(id, { due: this.#at + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.#timers.size;
  }

  advance(ms: number): void {
    const until = this.#at + ms;
    for (;;) {
      let first: [number, { due: number; callback: () => void }] | undefined;
      for (const entry of this.#timers) if (first === undefined || entry[1].due < first[1].due) first = entry;
      if (first === undefined || first[1].due > until) break;
      this.#timers.delete(first[0]);
      this.#at = first[1].due;
      first[1].callback();
    }
    this.#at = until;
  }
}
