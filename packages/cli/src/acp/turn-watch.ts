import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { WireEvent } from '@strand/protocol';
import { eventUpdates, turnOutcome, type TurnOutcome } from './event-updates.js';

/**
 * One `session/prompt`'s turn, picked out of the session's event stream: the first `turn/start`
 * at or after the seq the log had when the prompt was sent, up to its `turn/end`. Events before
 * that start belong to someone else (another client's turn finishing) and are shown as history.
 */
export class TurnWatch {
  readonly #fromSeq: number;
  #started = false;
  readonly outcome: Promise<TurnOutcome>;
  #settle!: (outcome: TurnOutcome) => void;
  #fail!: (error: unknown) => void;
  /** A cancel that arrived before the host had the turn: sent again once it does. */
  cancelRequested = false;

  constructor(fromSeq: number) {
    this.#fromSeq = fromSeq;
    this.outcome = new Promise<TurnOutcome>((resolve, reject) => {
      this.#settle = resolve;
      this.#fail = reject;
    });
    // Failed before anyone awaits it (the host lost while `session.prompt` is in flight): the
    // prompt still sees the rejection when it awaits; the process must not count it unhandled.
    this.outcome.catch(() => undefined);
  }

  /** The updates `event` stands for, from this turn's point of view. */
  observe(event: WireEvent): SessionUpdate[] {
    if (!this.#started) {
      if (event.type === 'turn/start' && event.seq >= this.#fromSeq) this.#started = true;
      return eventUpdates(event, 'history');
    }
    if (event.type === 'turn/end') {
      this.#settle(turnOutcome(event));
      return [];
    }
    return eventUpdates(event, 'turn');
  }

  /** The stream broke (the host went away): the prompt fails instead of waiting forever. */
  fail(error: unknown): void {
    this.#fail(error);
  }
}
