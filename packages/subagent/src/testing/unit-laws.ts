import fc from 'fast-check';
import type { AnyProjectionUnit } from '@strand/projection';
import { describeUnitLawsOver } from '@strand/projection/testing';
import type { SessionEvent } from '@strand/session';
import {
  subagentEventBodyArbitrary,
  subagentLogArbitrary,
  toLog,
  unitHeaderArbitrary,
} from './subagent-log-arbitrary.js';

/**
 * The projection unit laws (shared with the built-in units) over random subagent logs, which are
 * valid appends, so the live-vs-cold law runs too. `mayChange(state, event)` says when `apply`
 * may return a new state; whenever it says no, the same reference must come back.
 */
export function describeUnitLaws(
  unit: AnyProjectionUnit,
  mayChange: (state: unknown, event: SessionEvent) => boolean,
): void {
  describeUnitLawsOver(unit, {
    headers: unitHeaderArbitrary,
    logs: subagentLogArbitrary(),
    nextEvent: (events) =>
      fc
        .tuple(subagentEventBodyArbitrary, fc.integer({ min: -5, max: 5 }))
        .map(
          ([body, step]) => toLog([[body, step]], events.length, events.at(-1)?.time ?? 1_000_000).events[0]!,
        ),
    mayChange,
    appendable: true,
  });
}
