import type { SessionEvent } from './event.js';
import { SessionLogOffset } from './ids.js';

/**
 * Turn bookkeeping shared by fork cuts, crash repair and the invariant checker, so that "a closed
 * turn" means one thing everywhere.
 */
export interface OpenWork {
  /** Seq of the `turn/start` of a turn with no `turn/end`, if any. */
  readonly openTurnSeq: number | undefined;
  /** Whether a `step/start` inside the open turn lacks its `step/end`. */
  readonly openStep: boolean;
  /** callIds of `tool/call`s in the open turn that have no `tool/result`, in call order. */
  readonly unansweredCalls: readonly string[];
}

export function openWorkAt(events: readonly SessionEvent[], cut: number = events.length): OpenWork {
  let openTurnSeq: number | undefined;
  let openStep = false;
  let calls: string[] = [];
  for (let i = 0; i < cut; i++) {
    const e = events[i]!;
    switch (e.type) {
      case 'turn/start':
        openTurnSeq = e.seq;
        openStep = false;
        calls = [];
        break;
      case 'turn/end':
        openTurnSeq = undefined;
        openStep = false;
        calls = [];
        break;
      case 'step/start':
        openStep = true;
        break;
      case 'step/end':
        openStep = false;
        break;
      case 'tool/call': {
        const callId = (e.data as { callId?: unknown }).callId;
        if (typeof callId === 'string') calls.push(callId);
        break;
      }
      case 'tool/result': {
        const callId = (e.data as { callId?: unknown }).callId;
        if (typeof callId === 'string') calls = calls.filter((c) => c !== callId);
        break;
      }
      default:
        break;
    }
  }
  return { openTurnSeq, openStep, unansweredCalls: calls };
}

/** True if no turn is open at `cut` — the only place a fork may cut. */
export function isClosedTurnBoundary(events: readonly SessionEvent[], cut: SessionLogOffset): boolean {
  return cut <= events.length && openWorkAt(events, cut).openTurnSeq === undefined;
}

/** The end (as an offset) of the turn containing `seq`, or `seq + 1` if it is outside any turn. */
export function endOfTurnContaining(
  events: readonly SessionEvent[],
  seq: number,
): SessionLogOffset | undefined {
  if (seq < 0 || seq >= events.length) return undefined;
  if (openWorkAt(events, seq + 1).openTurnSeq === undefined) return SessionLogOffset(seq + 1);
  for (let i = seq + 1; i < events.length; i++)
    if (events[i]!.type === 'turn/end') return SessionLogOffset(i + 1);
  return undefined;
}
