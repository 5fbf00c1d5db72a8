import type { ProjectionHints, SubagentListEntry } from '@strand/protocol';

/** One `subagent.list { scope: 'children' }` result, as the panel keeps it. */
export interface LevelListing {
  readonly rows: readonly SubagentListEntry[];
  readonly timing: { readonly [id: string]: ProjectionHints };
}

export type LevelState =
  /** Never listed yet. */
  | { readonly kind: 'loading' }
  /** The first listing failed: there is nothing older to show. */
  | { readonly kind: 'error'; readonly message: string }
  /**
   * The last listing that succeeded. `refreshing` while another is asked for; `refreshError` when
   * the latest one failed — the rows are then the previous ones, and the panel says so.
   */
  | {
      readonly kind: 'ready';
      readonly listing: LevelListing;
      readonly refreshing: boolean;
      readonly refreshError: string | null;
    };

/**
 * One level of the subagent panel: lists on `refresh()` and keeps what it showed. Contract:
 * - A listing replaces the rows only when it succeeded; a failed one keeps the previous rows and
 *   records why (the tree never flashes to empty or to "loading" once it has rows).
 * - At most one `subagent.list` in flight; refreshes asked for meanwhile are coalesced into one
 *   more listing after it, so the last notification is always answered by a later listing and
 *   answers never arrive out of order.
 * - Lists only while open: `open()` returns its `close`. After `close()` nothing is listed and
 *   no answer is applied; `open()` again resumes (React's development mode runs every effect,
 *   cleanup and effect again, on mount).
 */
export class LevelLoader {
  readonly #list: () => Promise<LevelListing>;
  readonly #describe: (error: unknown) => string;
  readonly #listeners = new Set<() => void>();
  #state: LevelState = { kind: 'loading' };
  #inFlight = false;
  #again = false;
  #closed = true;

  constructor(list: () => Promise<LevelListing>, describe: (error: unknown) => string) {
    this.#list = list;
    this.#describe = describe;
  }

  get state(): LevelState {
    return this.#state;
  }

  /** Bound, so React's `useSyncExternalStore` can take it as is. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  refresh(): void {
    if (this.#closed) return;
    if (this.#inFlight) {
      this.#again = true;
      return;
    }
    this.#inFlight = true;
    const state = this.#state;
    if (state.kind === 'ready' && !state.refreshing) this.#set({ ...state, refreshing: true });
    else if (state.kind === 'error') this.#set({ kind: 'loading' });
    void this.#run();
  }

  /** Starts listing on `refresh()`; returns the function that stops it. */
  open(): () => void {
    this.#closed = false;
    return () => {
      this.#closed = true;
      this.#again = false;
    };
  }

  async #run(): Promise<void> {
    let next: LevelState;
    try {
      const listing = await this.#list();
      next = { kind: 'ready', listing, refreshing: false, refreshError: null };
    } catch (error) {
      const message = this.#describe(error);
      const previous = this.#state;
      next =
        previous.kind === 'ready'
          ? { ...previous, refreshing: false, refreshError: message }
          : { kind: 'error', message };
    }
    this.#inFlight = false;
    if (this.#closed) return;
    if (this.#again) {
      // A newer change was announced while this listing ran: its answer may predate it.
      this.#again = false;
      if (next.kind === 'ready') this.#set({ ...next, refreshing: true });
      this.refresh();
      return;
    }
    this.#set(next);
  }

  #set(state: LevelState): void {
    this.#state = state;
    for (const listener of [...this.#listeners]) listener();
  }
}
