import {
  SessionQueryError,
  type CorpusRow,
  type ObserveOptions,
  type SessionObservation,
} from '@strand/query';
import type { SessionId } from '@strand/session';
import type { ListingQuery } from '../listing/types.js';

/**
 * Wraps a query for tests and the benchmark: tracks how many observations are in flight (and the
 * peak), records which ids were observed, and injects faults — a rejected observation for chosen
 * ids, hooks around the read (a `beforeObserve` that returns a promise holds the read until it
 * settles: tests order reads by gates, not by delays), a tampered corpus.
 */
export class ObservedQuery implements ListingQuery {
  readonly inner: ListingQuery;
  inFlight = 0;
  peak = 0;
  readonly observed: SessionId[] = [];
  /** Observations of these ids reject with `SESSION_QUERY_PERSISTENCE_FAILED`. */
  readonly failing = new Set<string>();
  beforeObserve: ((id: SessionId) => void | Promise<void>) | undefined;
  afterObserve: ((id: SessionId, observation: SessionObservation) => void) | undefined;
  tamperCorpus: ((rows: CorpusRow[]) => CorpusRow[]) | undefined;

  constructor(inner: ListingQuery) {
    this.inner = inner;
  }

  reset(): void {
    this.inFlight = 0;
    this.peak = 0;
    this.observed.length = 0;
  }

  async listSessions(options: { signal?: AbortSignal } = {}): Promise<CorpusRow[]> {
    const rows = await this.inner.listSessions(options);
    return this.tamperCorpus === undefined ? rows : this.tamperCorpus(rows);
  }

  async observeSession(id: SessionId, options?: ObserveOptions): Promise<SessionObservation> {
    this.observed.push(id);
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      await this.beforeObserve?.(id);
      if (this.failing.has(id)) {
        throw new SessionQueryError('SESSION_QUERY_PERSISTENCE_FAILED', `injected read failure of ${id}`, {
          sessionId: id,
        });
      }
      const observation = await this.inner.observeSession(id, options);
      this.afterObserve?.(id, observation);
      return observation;
    } finally {
      this.inFlight--;
    }
  }
}
