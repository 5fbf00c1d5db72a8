/** What became of one write of a round: its result, or the error that failed it (alone or with the round). */
export type RoundOutcome<R> =
  | { readonly kind: 'written'; readonly result: R }
  | { readonly kind: 'failed'; readonly error: unknown };

/**
 * Sends one round: one outcome per write, in the same order. It may reject; then every write of
 * the round fails with that error (none of them is known to be durable).
 */
export type SendRound<W, R> = (writes: readonly W[]) => Promise<readonly RoundOutcome<R>[]>;

interface Waiting<W, R> {
  readonly write: W;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Gathers the writes of different sessions that are pending at the same moment into one round
 * trip (group commit across sessions).
 *
 * Invariants:
 * - A round starts at the `setImmediate` after its first write was queued, so every write queued
 *   during that turn of the event loop joins it; a lone writer waits for nothing else.
 * - At most one round is in flight: writes queued meanwhile go together in the next round, sent
 *   as soon as the one in flight settles. The more sessions write at once, the larger the rounds.
 * - Each write settles with its own outcome, only once its round has settled: a write resolves
 *   only when the round that carried it committed, and one write's failure is its own.
 * - The caller sends at most one write per session at a time (`AppendQueues`), so a round never
 *   holds two writes of one session.
 */
export class AppendRounds<W, R> {
  readonly #send: SendRound<W, R>;
  #queue: Waiting<W, R>[] = [];
  #scheduled = false;
  #inFlight = false;

  constructor(send: SendRound<W, R>) {
    this.#send = send;
  }

  write(write: W): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ write, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight || this.#queue.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#sendQueued();
    });
  }

  async #sendQueued(): Promise<void> {
    if (this.#inFlight || this.#queue.length === 0) return;
    const round = this.#queue;
    this.#queue = [];
    this.#inFlight = true;
    let outcomes: readonly RoundOutcome<R>[];
    try {
      outcomes = await this.#send(round.map(({ write }) => write));
    } catch (error) {
      outcomes = round.map(() => ({ kind: 'failed', error }));
    }
    this.#inFlight = false;
    round.forEach((waiting, i) => {
      const outcome = outcomes[i] ?? {
        kind: 'failed',
        error: new Error('no outcome for a write of the round'),
      };
      if (outcome.kind === 'written') waiting.resolve(outcome.result);
      else waiting.reject(outcome.error);
    });
    this.#schedule();
  }
}
