import { SessionSeq } from './ids.js';
import { toFrozenJson } from './json.js';
import type { SessionEventInput, SessionEvent } from './event.js';
import { openWorkAt } from './turns.js';

/**
 * The closers a crashed log needs: a pure function of the stored log, so a non-mutating read's
 * in-memory closers equal what a later repairing load writes. A turn left open is closed, never
 * truncated: every unanswered tool call gets a `TOOL_OUTCOME_UNKNOWN` result, an open step is ended,
 * and the turn ends `interrupted`. The repair events take the time of the last stored event, so the
 * result does not depend on when the repair runs.
 */
export function repairClosers(events: readonly SessionEvent[]): SessionEventInput[] {
  const open = openWorkAt(events);
  if (open.openTurnSeq === undefined) return [];
  const time = events.at(-1)?.time ?? 0;
  const closers: SessionEventInput[] = open.unansweredCalls.map((callId) => ({
    type: 'tool/result',
    time,
    data: { callId, content: '', isError: true, code: 'TOOL_OUTCOME_UNKNOWN' },
  }));
  if (open.openStep) closers.push({ type: 'step/end', time, data: {} });
  closers.push({ type: 'turn/end', time, data: { reason: 'interrupted' } });
  return closers;
}

/**
 * The repair closers as events with their seqs, deep-frozen, ready to show or to write. `events`
 * is the whole log, or a suffix of it that starts at or before the open turn's `turn/start` (the
 * closers depend on that turn alone); `cursor` is then the log's length.
 */
export function repairEvents(
  events: readonly SessionEvent[],
  cursor: number = events.length,
): SessionEvent[] {
  let seq = cursor;
  return repairClosers(events).map((input) =>
    Object.freeze({
      type: input.type,
      seq: SessionSeq(seq++),
      time: input.time ?? 0,
      data: toFrozenJson(input.data),
    }),
  );
}
