import { checkCoreEventData } from './core-schemas.js';
import { SessionError } from './errors.js';
import type { SessionEvent, SessionEventInput } from './event.js';
import type { SessionHeader } from './header.js';
import { SessionLogOffset, SessionSeq, type SessionId } from './ids.js';
import { toFrozenJson } from './json.js';

/** The durable side of a live session. `write` calls are ordered; each resolves once durable. */
export interface SessionWriter {
  write(events: readonly SessionEvent[]): Promise<void>;
}

export type AppendListener = (events: readonly SessionEvent[], session: Session) => void;

export interface SessionInit {
  readonly header: SessionHeader;
  /** Events already in the log (a seeded prefix, or a whole log loaded from persistence). */
  readonly events?: readonly SessionEvent[];
  /** Length of the inherited prefix within `events`; 0 for an unseeded session. */
  readonly inheritedEventCount?: SessionLogOffset;
  readonly writer?: SessionWriter;
  /** The persistence incarnation this live session writes to, when it is backed by storage. */
  readonly incarnation?: string;
  /** Where a throwing subscriber is reported; it never undoes or blocks the append. */
  readonly reportListenerError?: (error: unknown) => void;
}

/**
 * A live session: header plus an append-only, contiguous, deep-frozen event log.
 *
 * `append` is all-or-nothing: every input is validated (lossless JSON, core schemas) before any
 * seq is assigned. The in-memory log and subscribers advance synchronously, in order; the
 * returned promise resolves when the writer has made the batch durable. If a durable write fails
 * the session stops accepting appends (memory would otherwise run ahead of disk silently).
 */
export class Session {
  readonly header: SessionHeader;
  readonly inheritedEventCount: SessionLogOffset;
  readonly incarnation: string | undefined;
  readonly #events: SessionEvent[];
  readonly #listeners = new Set<AppendListener>();
  readonly #writer: SessionWriter | undefined;
  readonly #reportListenerError: (error: unknown) => void;
  #writeFailure: unknown = undefined;

  constructor(init: SessionInit) {
    this.header = init.header;
    this.#events = init.events === undefined ? [] : [...init.events];
    this.inheritedEventCount = init.inheritedEventCount ?? SessionLogOffset(0);
    if (this.inheritedEventCount > this.#events.length) {
      throw new RangeError(
        `inheritedEventCount ${this.inheritedEventCount} exceeds log length ${this.#events.length}`,
      );
    }
    if (this.header.isSeeded !== this.inheritedEventCount > 0) {
      throw new SessionError(
        'SESSION_HEADER_INVALID',
        `header.isSeeded=${String(this.header.isSeeded)} contradicts inheritedEventCount=${this.inheritedEventCount}`,
      );
    }
    this.#events.forEach((e, i) => {
      if (e.seq !== i) throw new SessionError('SESSION_SEQ_MISMATCH', `expected seq ${i}, got ${e.seq}`);
    });
    this.#writer = init.writer;
    this.incarnation = init.incarnation;
    this.#reportListenerError =
      init.reportListenerError ?? ((error) => console.error('strand: session subscriber threw', error));
  }

  get id(): SessionId {
    return this.header.id;
  }

  /** The immutable event prefix. The array is the live one: callers must not mutate it (typed readonly). */
  get events(): readonly SessionEvent[] {
    return this.#events;
  }

  /** The cut after the last event. */
  get cursor(): SessionLogOffset {
    return SessionLogOffset(this.#events.length);
  }

  get isSeeded(): boolean {
    return this.inheritedEventCount > 0;
  }

  /** True iff `seq` was written by this session, not inherited from the parent prefix. */
  isOwnSeq(seq: SessionSeq | number): boolean {
    return Number.isSafeInteger(seq) && seq >= this.inheritedEventCount && seq < this.#events.length;
  }

  get writeFailure(): unknown {
    return this.#writeFailure;
  }

  /** Subscribe to appends; listeners see each batch after it entered the in-memory log. */
  subscribe(listener: AppendListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
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
    for (const event of batch) this.#events.push(event);
    for (const listener of this.#listeners) {
      try {
        listener(batch, this);
      } catch (error) {
        this.#reportListenerError(error);
      }
    }
    if (this.#writer === undefined) return Promise.resolve(batch);
    return this.#writer.write(batch).then(
      () => batch,
      (error: unknown) => {
        this.#writeFailure ??= error;
        throw new SessionError('SESSION_WRITE_FAILED', `durable write of session ${this.id} failed`, {
          cause: error,
        });
      },
    );
  }

  #prepare(inputs: readonly SessionEventInput[]): SessionEvent[] {
    if (this.#writeFailure !== undefined) {
      throw new SessionError(
        'SESSION_WRITE_FAILED',
        `session ${this.id} refuses appends after a failed durable write`,
        {
          cause: this.#writeFailure,
        },
      );
    }
    const now = Date.now();
    let seq = this.#events.length;
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
