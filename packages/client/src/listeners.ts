/** Where a listener's exception goes; the default logs it. */
export type ListenerErrorReporter = (error: unknown) => void;

export const reportToConsole: ListenerErrorReporter = (error) => {
  console.error('strand client: a listener threw', error);
};

/**
 * A set of listeners. A listener that throws is reported and the others still run: one broken UI
 * component must not stop the store, the connection or a follower from advancing.
 */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  constructor(private readonly report: ListenerErrorReporter = reportToConsole) {}

  get size(): number {
    return this.set.size;
  }

  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  emit(value: T): void {
    // A copy: a listener may unsubscribe (or subscribe) while we iterate.
    for (const listener of [...this.set]) {
      try {
        listener(value);
      } catch (error) {
        this.report(error);
      }
    }
  }
}

/**
 * Listeners kept per key (a session id): `emit(key, value)` reaches that key's listeners only, a
 * throwing one is reported and the others still run, and a key whose last listener left is
 * dropped, so a page that opens thousands of sessions over its life keeps no trace of them. The
 * projection store's per-session subscribers are one; the web's subagent announcements another.
 */
export class KeyedListeners<T> {
  private readonly byKey = new Map<string, Listeners<T>>();

  constructor(private readonly report: ListenerErrorReporter = reportToConsole) {}

  /** How many keys have a listener now. */
  get size(): number {
    return this.byKey.size;
  }

  /** Calls `listener` on each `emit` of `key`. Returns the unsubscribe (idempotent). */
  subscribe(key: string, listener: (value: T) => void): () => void {
    let set = this.byKey.get(key);
    if (set === undefined) {
      set = new Listeners(this.report);
      this.byKey.set(key, set);
    }
    const remove = set.add(listener);
    return () => {
      remove();
      if (set.size === 0 && this.byKey.get(key) === set) this.byKey.delete(key);
    };
  }

  emit(key: string, value: T): void {
    this.byKey.get(key)?.emit(value);
  }
}
