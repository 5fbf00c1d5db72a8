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
