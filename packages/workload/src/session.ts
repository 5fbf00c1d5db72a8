import { SessionSeq, type SessionEvent, type SessionEventInput } from '@strand/session';
import { mulberry32 } from './prng.js';
import { EVENTS_PER_TURN, WORKLOAD_START_TIME, workloadTurn } from './turn.js';

/** Every session's PRNG is seeded with 7 plus its index (README.md). */
export const WORKLOAD_BASE_SEED = 7;

/** Sizes are rounded up to whole turns: 1,000 → 1,008, 10,000 → 10,017, 100,000 → 100,002. */
export function workloadEventCount(requested: number): number {
  return Math.ceil(requested / EVENTS_PER_TURN) * EVENTS_PER_TURN;
}

/**
 * The turns of session `sessionIndex`, one 21-event array at a time, so a benchmark can write
 * 100k events without holding them all (or holding them twice).
 */
export function* workloadTurns(
  sessionIndex: number,
  eventCount: number,
): Generator<SessionEventInput[], void, undefined> {
  const rng = mulberry32(WORKLOAD_BASE_SEED + sessionIndex);
  const turns = Math.ceil(eventCount / EVENTS_PER_TURN);
  for (let turn = 0; turn < turns; turn++) yield workloadTurn(rng, turn, WORKLOAD_START_TIME);
}

/** The same stream as `workloadTurns`, regrouped into batches of whole turns of at least `batchEvents` events. */
export function* workloadBatches(
  sessionIndex: number,
  eventCount: number,
  batchEvents: number,
): Generator<SessionEventInput[], void, undefined> {
  let batch: SessionEventInput[] = [];
  for (const turn of workloadTurns(sessionIndex, eventCount)) {
    for (const event of turn) batch.push(event);
    if (batch.length >= batchEvents) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** The whole session as append inputs (with deterministic `time`): `workloadEventCount(eventCount)` events. */
export function workloadSession(sessionIndex: number, eventCount: number): SessionEventInput[] {
  const events: SessionEventInput[] = [];
  for (const turn of workloadTurns(sessionIndex, eventCount)) for (const event of turn) events.push(event);
  return events;
}

/**
 * Envelopes for inputs as a log would hold them (`seq` from `from`), for benchmarks and tests that
 * fold without going through `Session.append`. Not frozen and not validated: workload data is valid
 * core vocabulary by construction.
 */
export function workloadEvents(inputs: readonly SessionEventInput[], from = 0): SessionEvent[] {
  return inputs.map((input, index) => ({
    type: input.type,
    seq: SessionSeq(from + index),
    time: input.time ?? WORKLOAD_START_TIME,
    data: input.data as SessionEvent['data'],
  }));
}
