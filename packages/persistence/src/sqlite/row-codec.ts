import {
  deepFreezeParsed,
  type JsonValue,
  type SessionEvent,
  type SessionSeq,
  defined,
} from '@strand/session';
import { PersistenceError } from '../errors.js';
import { elidedEvent } from '../scanned-log.js';
import type { EventRow } from './statements.js';

/**
 * Decodes event rows that must run contiguously from seq `from`, each deep-frozen (with
 * `dataTypes`, a scan: other types' data is left unparsed and comes back `null`). A row whose
 * data is not lossless JSON, or a seq out of place, is corruption naming the session and seq.
 * Takes an iterator rather than an array so each raw row dies young: holding every row string
 * of a 100k-event log at once costs about half as much memory again as the decoded log.
 */
export function decodeEvents(
  rows: Iterable<EventRow>,
  from: number,
  sessionId: string,
  dataTypes?: ReadonlySet<string>,
): SessionEvent[] {
  const events: SessionEvent[] = [];
  let expected = from;
  for (const [seq, type, time, json] of rows) {
    if (seq !== expected) throw corrupt(sessionId, expected, `seq gap: expected ${expected}, got ${seq}`);
    if (dataTypes !== undefined && !dataTypes.has(type)) {
      // A scan: this type's data is not wanted, so it is neither parsed nor checked.
      events.push(elidedEvent(type, seq, time));
      expected++;
      continue;
    }
    let data: JsonValue;
    try {
      data = JSON.parse(json) as JsonValue;
    } catch (error) {
      throw corrupt(sessionId, seq, 'event data is not JSON', error);
    }
    if (!deepFreezeParsed(data)) throw corrupt(sessionId, seq, 'event data holds -0');
    events.push(Object.freeze({ type, seq: seq as SessionSeq, time, data }));
    expected++;
  }
  return events;
}

/** The log must end where the session row says it does; missing tail rows are a gap too. */
export function checkLogEnd(decodedEnd: number, nextSeq: number, sessionId: string): void {
  if (decodedEnd !== nextSeq) {
    throw corrupt(
      sessionId,
      decodedEnd,
      `seq gap: the session row says the log ends before seq ${nextSeq}, rows end before ${decodedEnd}`,
    );
  }
}

export function corrupt(sessionId: string, seq: number, why: string, cause?: unknown): PersistenceError {
  return new PersistenceError('PERSISTENCE_CORRUPT', `session ${sessionId}, seq ${seq}: ${why}`, {
    sessionId,
    location: { seq },
    ...defined({ cause }),
  });
}
