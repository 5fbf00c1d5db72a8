import type { CoreEventDataMap, CoreEventType, SessionEventInput } from '@strand/session';
import { intBetween, type Rng } from './prng.js';
import { code, prose, sourcePath } from './text.js';

export const EVENTS_PER_TURN = 21;
/** The workload's clock origin (2026-01-01T00:00:00Z); events are one second apart. */
export const WORKLOAD_START_TIME = Date.UTC(2026, 0, 1);
const EVENT_INTERVAL_MS = 1_000;
const TOOL_STEPS = 3;

/**
 * One standard turn (packages/workload/README.md): exactly 21 events, in this order —
 * `turn/start`, `user/message`, three tool steps (`step/start`, `assistant/message` with one tool
 * call and usage, `tool/call`, `tool/result`, `step/end`), a final step (`step/start`,
 * `assistant/message`, `step/end`) and `turn/end`.
 *
 * Times are a pure function of `turnIndex` (not of the wall clock), so the same seed yields the
 * same bytes on every run.
 */
export function workloadTurn(
  rng: Rng,
  turnIndex: number,
  startTime: number = WORKLOAD_START_TIME,
): SessionEventInput[] {
  const events: SessionEventInput[] = [];
  const push = <T extends CoreEventType>(type: T, data: CoreEventDataMap[T]): void => {
    events.push({
      type,
      data,
      time: startTime + (turnIndex * EVENTS_PER_TURN + events.length) * EVENT_INTERVAL_MS,
    });
  };

  push('turn/start', {});
  push('user/message', { content: prose(rng, 500, 2_000), author: 'human' });
  for (let step = 0; step < TOOL_STEPS; step++) {
    const callId = `call_${turnIndex}_${step}`;
    const args = JSON.stringify({ path: sourcePath(rng), content: code(rng, 400, 1_800) });
    push('step/start', {});
    push('assistant/message', {
      content: prose(rng, 100, 600),
      toolCalls: [{ id: callId, name: 'write_file', arguments: args }],
      usage: usage(rng),
    });
    push('tool/call', { callId, name: 'write_file', arguments: args });
    push('tool/result', { callId, content: code(rng, 500, 2_000) });
    push('step/end', {});
  }
  push('step/start', {});
  push('assistant/message', { content: prose(rng, 500, 2_000), usage: usage(rng) });
  push('step/end', {});
  push('turn/end', { reason: 'completed' });
  return events;
}

function usage(rng: Rng): { input: number; output: number } {
  return { input: intBetween(rng, 1_000, 64_000), output: intBetween(rng, 20, 2_000) };
}
