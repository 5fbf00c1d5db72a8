/** Session ids loaded by one query at most (a round of more is several queries, one after another). */
export const LOAD_CHUNK = 1_000;

export interface LoadRoundsOptions {
  /** Loads these ids' rows into the mirror; may reject (the round reports it and goes on). */
  readonly load: (sessionIds: readonly string[]) => Promise<void>;
  /** The ids the mirror holds: what a `requestHeld` round reloads. */
  readonly held: () => Iterable<string>;
  /** False once the store closed: no round starts then. */
  readonly isOpen: () => boolean;
  /** Told of each failed query; the ids it covered stay as they were (held, or not held). */
  readonly onFailure: (sessionIds: readonly string[], error: unknown) => void;
}

/**
 * The loads of the mirror, gathered into rounds that run one at a time: the requests made while a
 * round runs form the next one, so a burst of notices or misses costs one query per chunk, and a
 * later round always reads a later snapshot than an earlier one (an older read can never land
 * over a newer one). A request resolves once the round holding it has finished — never rejects:
 * a failed load leaves the mirror as it was, which is a miss at worst.
 */
export class LoadRounds {
  readonly #options: LoadRoundsOptions;
  #queued = new Set<string>();
  #everything = false;
  #inFlight: ReadonlySet<string> = new Set();
  #next: { promise: Promise<void>; resolve: () => void } | undefined;
  #running: Promise<void> | undefined;

  constructor(options: LoadRoundsOptions) {
    this.#options = options;
  }

  /** Loads these ids in the next round. */
  request(sessionIds: Iterable<string>): Promise<void> {
    for (const id of sessionIds) this.#queued.add(id);
    return this.#schedule();
  }

  /** Reloads every id held when the next round starts (notices were missed). */
  requestHeld(): Promise<void> {
    this.#everything = true;
    return this.#schedule();
  }

  /** Whether `sessionId` is queued or being loaded: a notice for it must load it again. */
  isPending(sessionId: string): boolean {
    return this.#queued.has(sessionId) || this.#inFlight.has(sessionId);
  }

  /** Ids waiting for the next round. */
  get queuedCount(): number {
    return this.#queued.size;
  }

  /** Resolves once no round runs (those requested meanwhile included). */
  async settled(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  #schedule(): Promise<void> {
    if (!this.#options.isOpen()) return Promise.resolve();
    if (this.#next === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.#next = { promise, resolve };
    }
    const waited = this.#next.promise;
    this.#running ??= this.#run();
    return waited;
  }

  async #run(): Promise<void> {
    // Let the requests of the same burst (a page's misses, a batch of notices) join this round.
    await Promise.resolve();
    while (this.#next !== undefined) {
      const round = this.#next;
      this.#next = undefined;
      const ids = this.#queued;
      if (this.#everything) for (const id of this.#options.held()) ids.add(id);
      this.#queued = new Set();
      this.#everything = false;
      this.#inFlight = ids;
      try {
        if (this.#options.isOpen()) await this.#loadAll([...ids]);
      } finally {
        this.#inFlight = new Set();
        round.resolve();
      }
    }
    // Cleared in the same synchronous step as the last check, so no request can fall in between.
    this.#running = undefined;
  }

  async #loadAll(ids: readonly string[]): Promise<void> {
    for (let at = 0; at < ids.length && this.#options.isOpen(); at += LOAD_CHUNK) {
      const chunk = ids.slice(at, at + LOAD_CHUNK);
      try {
        await this.#options.load(chunk);
      } catch (error) {
        try {
          this.#options.onFailure(chunk, error);
        } catch {
          // A reporter that throws must not stop the rounds: the next request would hang.
        }
      }
    }
  }
}
