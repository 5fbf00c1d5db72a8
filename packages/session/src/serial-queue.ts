/**
 * Runs steps one at a time, in the order they were queued, each to completion (awaits included).
 * A client follower's state changes all go through one queue, so a gap repair that awaits a page
 * holds back the frames that arrived after it; live ingest reads one changed file at a time.
 * Here, below both, so neither copies it.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly report: (error: unknown) => void) {}

  /** Queues `step`; its failure is reported and the queue goes on. */
  enqueue(step: () => void | Promise<void>): void {
    this.tail = this.tail.then(step).catch((error: unknown) => this.report(error));
  }

  /** Queues `step`; the caller receives its result or failure. */
  run<T>(step: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(step);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Resolves once every step queued so far has finished. */
  settled(): Promise<void> {
    return this.tail;
  }
}
