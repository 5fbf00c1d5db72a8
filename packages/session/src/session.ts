import { checkCoreEventData } from './core-event-check.js';
import { SessionError } from './errors.js';
import { reportTo, silentLogger, type Logger } from './logger.js';
import type { SessionEvent, SessionEventInput } from './event.js';
import type { SessionHeader } from './header.js';
import { SessionLogOffset, SessionSeq, type SessionId } from './ids.js';
import { toFrozenJson } from './json.js';

/** The durable side of a live session. `write` calls are ordered; each resolves once durable. */
export interface SessionWriter {
  write(events: readonly SessionEvent[]): Promise<void>;
}

export type AppendListener = (events: readonly SessionEvent[], session: Session) => void;
export type WriteFailureListener = (failure: SessionError, session: Session) => void;

/** What only the in-process agent loop may read: every appended event, durable or not yet. */
export interface InMemoryTip {
  readonly events: readonly SessionEvent[];
  readonly cursor: SessionLogOffset;
}

export interface SessionInit {
  readonly header: SessionHeader;
  /** Events already in the log (a seeded prefix, or a whole log loaded from persistence). */
  readonly events?: readonly SessionEvent[];
  /** Length of the inherited prefix within `events`; 0 for an unseeded session. */
  readonly inheritedEventCount?: SessionLogOffset;
  readonly writer?: SessionWriter;
  /** The persistence incarnation this live session writes to, when it is backed by storage. */
  readonly incarnation?: string;
  /** Where a throwing subscriber is reported; it never undoes or blocks the append. Default: `logger`. */
  readonly reportListenerError?: (error: unknown) => void;
  /** Default: `silentLogger`. */
  readonly logger?: Logger;
}

/** A batch handed to the writer and not yet part of the durable cut. */
interface InFlightBatch {
  readonly events: readonly SessionEvent[];
  acknowledged: boolean;
  readonly delivered: { resolve: () => void; reject: (error: unknown) => void };
}

/**
 * A live session: header plus an append-only, contiguous, deep-frozen event log.
 *
 * It has two cuts. The **in-memory tip** advances synchronously with `append` (seqs are assigned
 * there); the **durable cut** advances when the writer acknowledges a batch, in append order.
 * Everything a reader outside the agent loop sees — `events`, `cursor`, `subscribe` — is the
 * durable cut, so nothing that leaves the process can be taken back by a failed write or a crash
 * (docs/architecture.md, rule 7 and "Two cuts"). Only `inMemoryTip()` shows the rest; its name is the choice.
 *
 * `append` is all-or-nothing: every input is validated (lossless JSON, core schemas) before any
 * seq is assigned. It resolves once the batch is durable and every subscriber has seen it. If a
 * durable write fails, the session stops: the failed batch and everything after it never reach
 * the durable cut, further appends are refused, and `onWriteFailure` listeners hear it once.
 * Reopening from disk (detach, then a fresh load) is the way back.
 */
export class Session {
  readonly header: SessionHeader;
  readonly inheritedEventCount: SessionLogOffset;
  readonly incarnation: string | undefined;
  /** The durable prefix: what every reader sees. */
  readonly #durable: SessionEvent[];
  /** Batches handed to the writer, in append order: the in-memory tip is the durable prefix plus these. */
  readonly #inFlight: InFlightBatch[] = [];
  /** Events in `#inFlight`: the next seq is `#durable.length + #inFlightEvents`. */
  #inFlightEvents = 0;
  readonly #listeners = new Set<AppendListener>();
  readonly #failureListeners = new Set<WriteFailureListener>();
  readonly #writer: SessionWriter | undefined;
  readonly #reportListenerError: (error: unknown) => void;
  #writeFailure: SessionError | undefined = undefined;

  constructor(init: SessionInit) {
    this.header = init.header;
    this.#durable = init.events === undefined ? [] : [...init.events];
    this.inheritedEventCount = init.inheritedEventCount ?? SessionLogOffset(0);
    if (this.inheritedEventCount > this.#durable.length) {
      throw new RangeError(
        `inheritedEventCount ${this.inheritedEventCount} exceeds log length ${this.#durable.length}`,
      );
    }
    if (this.header.isSeeded !== this.inheritedEventCount > 0) {
      throw new SessionError(
        'SESSION_HEADER_INVALID',
        `header.isSeeded=${String(this.header.isSeeded)} contradicts inheritedEventCount=${this.inheritedEventCount}`,
      );
    }
    this.#durable.forEach((e, i) => {
      if (e.seq !== i) throw new SessionError('SESSION_SEQ_MISMATCH', `expected seq ${i}, got ${e.seq}`);
    });
    this.#writer = init.writer;
    this.incarnation = init.incarnation;
    this.#reportListenerError =
      init.reportListenerError ?? reportTo(init.logger ?? silentLogger, 'a session subscriber threw');
  }

  get id(): SessionId {
    return this.header.id;
  }

  /**
   * The durable event prefix (what the writer has acknowledged). The array is the live one:
   * callers must not mutate it (typed readonly).
   */
  get events(): readonly SessionEvent[] {
    return this.#durable;
  }

  /** The durable cut: after the last acknowledged event. */
  get cursor(): SessionLogOffset {
    return SessionLogOffset(this.#durable.length);
  }

  /**
   * Every appended event, durable or still being written. **Only the in-process agent loop may
   * read this** (to build the next model request from its own appends); nothing that leaves the
   * process may, since a failed write or a crash takes the part past `cursor` back.
   */
  inMemoryTip(): InMemoryTip {
    // Derived, not kept: between appends nothing is in flight and the tip is the durable array.
    const events =
      this.#inFlight.length === 0
        ? this.#durable
        : [...this.#durable, ...this.#inFlight.flatMap((b) => b.events)];
    return { events, cursor: SessionLogOffset(events.length) };
  }

  get isSeeded(): boolean {
    return this.inheritedEventCount > 0;
  }

  /** True iff `seq` is durable here and was written by this session, not inherited from the parent prefix. */
  isOwnSeq(seq: SessionSeq | number): boolean {
    return Number.isSafeInteger(seq) && seq >= this.inheritedEventCount && seq < this.#durable.length;
  }

  /** The failed durable write that stopped this session (`SESSION_WRITE_FAILED`), if any. */
  get writeFailure(): SessionError | undefined {
    return this.#writeFailure;
  }

  /** Subscribe to durable batches: each is delivered once the writer acknowledged it, in seq order. */
  subscribe(listener: AppendListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Hear the failed durable write that stops this session (once). Fires at once if it already stopped. */
  onWriteFailure(listener: WriteFailureListener): () => void {
    if (this.#writeFailure !== undefined) {
      this.#notify(listener, this.#writeFailure);
      return () => undefined;
    }
    this.#failureListeners.add(listener);
    return () => this.#failureListeners.delete(listener);
  }

  append(inputs: SessionEventInput | readonly SessionEventInput[]): Promise<readonly SessionEvent[]> {
    let batch: SessionEvent[];
    try {
      batch = this.#prepare(
        Array.isArray(inputs) ? (inputs as readonly SessionEventInput[]) : [inputs as SessionEventInput],
      );
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    if (batch.length === 0) return Promise.resolve(batch);
    if (this.#writer === undefined) {
      // Nothing to wait for: a session without storage is durable as far as it goes.
      this.#advanceDurable(batch);
      return Promise.resolve(batch);
    }
    return new Promise<readonly SessionEvent[]>((resolve, reject) => {
      const inFlight: InFlightBatch = {
        events: batch,
        acknowledged: false,
        delivered: { resolve: () => resolve(batch), reject },
      };
      this.#inFlight.push(inFlight);
      this.#inFlightEvents += batch.length;
      this.#writer!.write(batch).then(
        () => {
          inFlight.acknowledged = true;
          this.#deliverAcknowledged();
        },
        (error: unknown) => this.#stop(error),
      );
    });
  }

  /** Moves acknowledged batches at the front of the queue into the durable cut, in order. */
  #deliverAcknowledged(): void {
    while (this.#writeFailure === undefined && this.#inFlight[0]?.acknowledged === true) {
      const next = this.#inFlight.shift()!;
      this.#inFlightEvents -= next.events.length;
      this.#advanceDurable(next.events);
      next.delivered.resolve();
    }
  }

  #advanceDurable(batch: readonly SessionEvent[]): void {
    for (const event of batch) this.#durable.push(event);
    for (const listener of this.#listeners) {
      try {
        listener(batch, this);
      } catch (error) {
        this.#reportListenerError(error);
      }
    }
  }

  /** A durable write failed: nothing in flight reaches the durable cut, and the session stops. */
  #stop(cause: unknown): void {
    // The tip falls back to the durable cut first: nobody, listeners included, builds on what was lost.
    const lost = this.#inFlight.splice(0);
    this.#inFlightEvents = 0;
    if (this.#writeFailure === undefined) {
      this.#writeFailure = new SessionError(
        'SESSION_WRITE_FAILED',
        `durable write of session ${this.id} failed`,
        {
          cause,
        },
      );
      for (const listener of this.#failureListeners) this.#notify(listener, this.#writeFailure);
      this.#failureListeners.clear();
    }
    for (const batch of lost) batch.delivered.reject(this.#writeFailure);
  }

  #notify(listener: WriteFailureListener, failure: SessionError): void {
    try {
      listener(failure, this);
    } catch (error) {
      this.#reportListenerError(error);
    }
  }

  #prepare(inputs: readonly SessionEventInput[]): SessionEvent[] {
    if (this.#writeFailure !== undefined) {
      throw new SessionError(
        'SESSION_WRITE_FAILED',
        `session ${this.id} refuses appends after a failed durable write`,
        { cause: this.#writeFailure.cause },
      );
    }
    const now = Date.now();
    let seq = this.#durable.length + this.#inFlightEvents;
    return inputs.map((input, index) => {
      if (typeof input.type !== 'string' || input.type.length === 0) {
        throw new SessionError('SESSION_EVENT_INVALID', `event ${index}: type must be a non-empty string`);
      }
      const time = input.time ?? now;
      if (!Number.isSafeInteger(time))
        throw new SessionError('SESSION_EVENT_INVALID', `event ${index}: time must be integer ms`);
      const data = toFrozenJson(input.data);
      const reason = checkCoreEventData(input.type, data);
      if (reason !== undefined) {
        throw new SessionError('SESSION_EVENT_INVALID', `event ${index} (${input.type}): ${reason}`, {
          details: { type: input.type },
        });
      }
      return Object.freeze({ type: input.type, seq: SessionSeq(seq++), time, data });
    });
  }
}
