import { repairEvents, SessionSeq, type SessionEvent } from '@strand/session';
import { PersistenceError } from './errors.js';

/** An event a scan read without its data: envelope only, `data: null`, frozen like every read event. */
export function elidedEvent(type: string, seq: number, time: number): SessionEvent {
  return Object.freeze({ type, seq: SessionSeq(seq), time, data: null });
}

/*
 * Crash repair for scans. The closers read the open turn's tool calls and results, whose data a
 * scan may have elided; a backend then reads that one turn again in full. A log that ends closed
 * — the usual case — needs no second look.
 */

/** The index of the `turn/start` of the turn the log leaves open, or undefined. Reads types only. */
export function openTurnStart(events: readonly SessionEvent[]): number | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const type = events[i]!.type;
    if (type === 'turn/end') return undefined;
    if (type === 'turn/start') return i;
  }
  return undefined;
}

/** Where a full read must start for exact closers: the open turn's start, if a scan may have elided data in it. */
export function elidedOpenTurnStart(
  events: readonly SessionEvent[],
  dataTypes: ReadonlySet<string>,
): number | undefined {
  const start = openTurnStart(events);
  if (start === undefined) return undefined;
  for (let i = start; i < events.length; i++) {
    const event = events[i]!;
    if (event.data === null && !dataTypes.has(event.type)) return start;
  }
  return undefined;
}

/**
 * The exact closers of a scanned log. `fullFrom` holds the events from `elidedOpenTurnStart` on,
 * data included (undefined when that was undefined); it may run past the scan's end, since a log
 * only grows, but must agree with it on seqs.
 */
export function scanRepairs(
  sessionId: string,
  events: readonly SessionEvent[],
  fullFrom: readonly SessionEvent[] | undefined,
): SessionEvent[] {
  const start = openTurnStart(events);
  if (start === undefined) return [];
  let turn = events.slice(start);
  if (fullFrom !== undefined) {
    const end = events.length - start;
    if (fullFrom.length < end || fullFrom[0]?.seq !== start || fullFrom[end - 1]?.seq !== events.length - 1) {
      throw new PersistenceError(
        'PERSISTENCE_SEQ_CONFLICT',
        `session ${sessionId} changed while it was scanned`,
        {
          sessionId,
        },
      );
    }
    turn = fullFrom.slice(0, end);
  }
  return repairEvents(turn, events.length);
}
