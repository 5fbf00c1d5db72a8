import type { PreparationLease } from '@strand/persistence';
import type { ProjectionSnapshot } from '@strand/projection';
import type { SessionEvent, SessionHeader, SessionLogOffset } from '@strand/session';
import { SessionQueryError } from './errors.js';

export type ObservationSource = 'live' | 'cold';

/** The immutable read cut an observation describes; every field comes from one source. */
export interface ObservationCut {
  readonly source: ObservationSource;
  readonly header: SessionHeader;
  /** The exact inherited cut (not in the logical header). */
  readonly inheritedEventCount: SessionLogOffset;
  /** The events of the window: contiguous, deep-frozen, ending at `cursor`. */
  readonly events: readonly SessionEvent[];
  /** The seq of `events[0]` (the window start); `cursor` when the window is empty. */
  readonly firstSeq: number;
  /** The cut after the last event: the log length at this observation. */
  readonly cursor: SessionLogOffset;
  /** With `projectionMode: 'all'`: every registered unit at `cursor` (`asOfSeq = cursor − 1`). */
  readonly projections: ProjectionSnapshot<string> | undefined;
  /** The persisted revision this cold cut was read at. */
  readonly revision: string | undefined;
  readonly incarnation: string | undefined;
}

/** Shared between the leases of one cut: released when the last lease is disposed. */
class CutHolder {
  leases = 0;
  constructor(
    readonly cut: ObservationCut,
    readonly preparation: PreparationLease | undefined,
    readonly onLease: (delta: number) => void,
  ) {}
}

/**
 * A disposable lease on one exact read cut. Each owner disposes its own lease; `retain()` gives an
 * independent lease on the same cut (follow hands one to agent promotion). The prepared cold
 * session behind the cut stays pinned until every lease is disposed. An observation has no
 * mutation rights: it can neither append nor activate an agent.
 */
export class SessionObservation implements ObservationCut {
  readonly #holder: CutHolder;
  #disposed = false;

  /** @internal — created by `SessionQuery.observeSession`. */
  constructor(holder: CutHolder) {
    this.#holder = holder;
    holder.leases++;
    holder.onLease(+1);
  }

  static create(
    cut: ObservationCut,
    preparation: PreparationLease | undefined,
    onLease: (delta: number) => void,
  ): SessionObservation {
    return new SessionObservation(new CutHolder(cut, preparation, onLease));
  }

  get source(): ObservationSource {
    return this.#holder.cut.source;
  }
  get header(): SessionHeader {
    return this.#holder.cut.header;
  }
  get inheritedEventCount(): SessionLogOffset {
    return this.#holder.cut.inheritedEventCount;
  }
  get events(): readonly SessionEvent[] {
    return this.#holder.cut.events;
  }
  get firstSeq(): number {
    return this.#holder.cut.firstSeq;
  }
  get cursor(): SessionLogOffset {
    return this.#holder.cut.cursor;
  }
  get projections(): ProjectionSnapshot<string> | undefined {
    return this.#holder.cut.projections;
  }
  get revision(): string | undefined {
    return this.#holder.cut.revision;
  }
  get incarnation(): string | undefined {
    return this.#holder.cut.incarnation;
  }
  get disposed(): boolean {
    return this.#disposed;
  }

  /** True when the cold cut is backed by a whole prepared log (promotion can publish it without a read). */
  get hasPreparedSource(): boolean {
    return this.#holder.preparation !== undefined;
  }

  retain(): SessionObservation {
    if (this.#disposed)
      throw new SessionQueryError(
        'SESSION_QUERY_INVALID_QUERY',
        `observation of ${this.header.id} was already disposed`,
      );
    return new SessionObservation(this.#holder);
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    const holder = this.#holder;
    holder.leases--;
    holder.onLease(-1);
    if (holder.leases === 0) holder.preparation?.release();
  }
}
