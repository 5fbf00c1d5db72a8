/**
 * A clock and timers that move only when a test says so: the injected replacement for
 * `performance.now`, `setTimeout` and `setInterval` wherever code under test waits on time, so a
 * test states "after 200 ms of silence" instead of sleeping 200 real ms and hoping the box is idle.
 *
 * Timers fire synchronously inside {@link ManualClock.advance}, in deadline order (ties in
 * arming order); an interval re-arms itself after each firing. Methods are bound, so they can be
 * handed over one by one (`{ setTimeout: clock.setTimeout, ... }`).
 */
interface ManualTimer {
  at: number;
  readonly every: number | undefined;
  readonly fire: () => void;
}

export class ManualClock {
  #now = 0;
  #nextId = 1;
  readonly #timers = new Map<number, ManualTimer>();
  readonly #armedWaiters: Array<{ count: number; resolve: () => void }> = [];

  /** Milliseconds since the clock was made (starts at 0). */
  readonly now = (): number => this.#now;

  readonly setTimeout = (fire: () => void, ms: number): number => this.#arm(fire, ms, undefined);

  readonly clearTimeout = (handle: unknown): void => {
    this.#timers.delete(handle as number);
  };

  readonly setInterval = (fire: () => void, ms: number): number => this.#arm(fire, ms, Math.max(1, ms));

  readonly clearInterval = (handle: unknown): void => {
    this.#timers.delete(handle as number);
  };

  /** Timers armed and not yet fired or cleared. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Resolves once at least `count` timers are armed (code under test arms them after its own awaits). */
  whenArmed(count = 1): Promise<void> {
    if (this.#timers.size >= count) return Promise.resolve();
    return new Promise((resolve) => this.#armedWaiters.push({ count, resolve }));
  }

  /** Moves time forward by `ms`, firing every timer that comes due on the way. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance by a non-negative duration, got ${ms}`);
    const until = this.#now + ms;
    for (;;) {
      const next = this.#nextDue(until);
      if (next === undefined) break;
      const [id, timer] = next;
      this.#now = timer.at;
      if (timer.every === undefined) this.#timers.delete(id);
      else timer.at += timer.every;
      timer.fire();
    }
    this.#now = until;
  }

  #arm(fire: () => void, ms: number, every: number | undefined): number {
    const id = this.#nextId++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), every, fire });
    for (const waiter of [...this.#armedWaiters]) {
      if (this.#timers.size < waiter.count) continue;
      this.#armedWaiters.splice(this.#armedWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    return id;
  }

  #nextDue(until: number): [number, ManualTimer] | undefined {
    let due: [number, ManualTimer] | undefined;
    // Map order is arming order, so the first of equal deadlines wins.
    for (const entry of this.#timers) {
      if (entry[1].at > until) continue;
      if (due === undefined || entry[1].at < due[1].at) due = entry;
    }
    return due;
  }
}
