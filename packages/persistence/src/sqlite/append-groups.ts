import type { SessionEvent, SessionId } from '@strand/session';

/** One `append` waiting for its group's commit. */
export interface QueuedAppend {
  readonly id: SessionId;
  readonly events: readonly SessionEvent[];
}

/** What became of one append of a group: its revision, or the error that failed it alone or all. */
export type AppendOutcome =
  | { readonly kind: 'written'; readonly revision: string }
  | { readonly kind: 'failed'; readonly error: unknown };

/**
 * Commits one group: returns one outcome per append, in the same order. It must not throw; a
 * failure that sinks the whole group is an outcome of every append in it.
 */
export type CommitGroup = (group: readonly QueuedAppend[]) => readonly AppendOutcome[];

interface Waiting extends QueuedAppend {
  readonly resolve: (revision: string) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Gathers the appends issued during one turn of the event loop — across sessions — and hands
 * them to `commit` as one group at the next `setImmediate`, so one transaction and one sync serve
 * all of them. A lone writer waits only for that turn to end, never for a time window. Each
 * append's promise settles with its own outcome, so an append resolves only once the group that
 * holds it is durable, and one append's failure is its own.
 *
 * `drain()` commits what is queued at once: every other write, `flush` and `close` call it first,
 * so operations of one caller keep their order (an append queued before a `delete` is written
 * before it).
 */
export class AppendGroups {
  readonly #commit: CommitGroup;
  #queue: Waiting[] = [];
  #scheduled: NodeJS.Immediate | undefined;

  constructor(commit: CommitGroup) {
    this.#commit = commit;
  }

  enqueue(id: SessionId, events: readonly SessionEvent[]): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      this.#queue.push({ id, events, resolve, reject });
      this.#scheduled ??= setImmediate(() => this.drain());
    });
  }

  /** Commits the queued appends now (a no-op when none are queued). */
  drain(): void {
    if (this.#scheduled !== undefined) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    const group = this.#queue;
    if (group.length === 0) return;
    this.#queue = [];
    let outcomes: readonly AppendOutcome[];
    try {
      outcomes = this.#commit(group);
    } catch (error) {
      // A broken `commit` must still settle every caller: none of them is known to be durable.
      outcomes = group.map(() => ({ kind: 'failed', error }));
    }
    group.forEach((waiting, i) => {
      const outcome = outcomes[i] ?? { kind: 'failed', error: new Error('no outcome for a grouped append') };
      if (outcome.kind === 'written') waiting.resolve(outcome.revision);
      else waiting.reject(outcome.error);
    });
  }
}
