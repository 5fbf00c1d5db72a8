import { ProjectionRegistry } from '@strand/projection';
import { SessionLogOffset } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { SUBAGENT_DESCRIPTOR_EVENT } from '../descriptor.js';
import { toLog } from '../testing/subagent-log-arbitrary.js';
import { describeUnitLaws } from '../testing/unit-laws.js';
import type { SubagentTimingState } from './projection-types.js';
import { subagentTimingUnit } from './timing-unit.js';

const header = { version: 1, id: 'c' as never, createdAt: 0, isSeeded: false } as const;
type Step = readonly [{ type: string; data: unknown }, number];
/** An event `dt` ms after the previous one. */
const at = (dt: number, type: string, data: unknown = {}): Step => [{ type, data }, dt];
const desc = (dt: number, data: unknown = { version: 2, mode: 'continuable', label: 'x' }): Step =>
  at(dt, SUBAGENT_DESCRIPTOR_EVENT, data);
const start = (dt: number): Step => at(dt, 'turn/start');
const end = (dt: number, reason = 'completed'): Step => at(dt, 'turn/end', { reason });
const msg = (dt: number): Step => at(dt, 'assistant/message', { content: 'x' });
const viewOf = (...steps: Step[]): unknown =>
  new ProjectionRegistry({ units: [subagentTimingUnit] }).foldAll(header, toLog(steps, 0, 0).events).snapshot
    .values.subagentTiming;

describe('subagentTiming unit', () => {
  it('counts nothing before a descriptor (an ordinary session): zero, no active turn', () => {
    expect(viewOf(start(10), msg(100), end(50), start(10))).toEqual({
      settledMs: 0,
      settledTurns: 0,
      active: null,
    });
  });

  it('sums the active time of each turn closed after the descriptor: Σ (turn/end.time − turn/start.time)', () => {
    expect(viewOf(desc(1), start(10), msg(100), end(50), msg(1_000), start(10), end(7))).toEqual({
      settledMs: 157,
      settledTurns: 2,
      active: null,
    });
  });

  it('reports the open turn as since (its start) and through (the last event folded)', () => {
    // times: desc 1, start 11, msg 111, msg 161
    expect(viewOf(desc(1), start(10), msg(100), msg(50))).toEqual({
      settledMs: 0,
      settledTurns: 0,
      active: { since: 11, through: 161 },
    });
  });

  it('a session’s own descriptor resets it, so inherited turns never count', () => {
    // A fork prefix: an ancestor's descriptor and two closed turns, then the child's own descriptor and one turn.
    const inherited = [desc(1), start(10), end(100), start(10), end(100)];
    expect(viewOf(...inherited)).toEqual({ settledMs: 200, settledTurns: 2, active: null });
    expect(viewOf(...inherited, desc(5), start(10), end(30))).toEqual({
      settledMs: 30,
      settledTurns: 1,
      active: null,
    });
  });

  it('a descriptor landing inside an open turn counts that turn from its start', () => {
    // times: start 10, desc 15, end 40
    expect(viewOf(start(10), desc(5))).toEqual({
      settledMs: 0,
      settledTurns: 0,
      active: { since: 10, through: 15 },
    });
    expect(viewOf(start(10), desc(5), end(25))).toEqual({ settledMs: 30, settledTurns: 1, active: null });
  });

  it('any descriptor resets it, a corrupt one included (payload validity is the identity unit’s business)', () => {
    expect(viewOf(desc(1), start(10), end(100), desc(1, { version: 9 }))).toEqual({
      settledMs: 0,
      settledTurns: 0,
      active: null,
    });
  });

  it('a turn closed by crash repair (interrupted, at the last stored event’s time) counts up to that time', () => {
    expect(viewOf(desc(1), start(10), msg(40), end(0, 'interrupted'))).toEqual({
      settledMs: 40,
      settledTurns: 1,
      active: null,
    });
  });

  it('a turn that starts while another is open settles the open one at its last event', () => {
    expect(viewOf(desc(1), start(10), msg(40), start(500), end(5))).toEqual({
      settledMs: 45,
      settledTurns: 2,
      active: null,
    });
  });

  it('a clock that goes backwards never makes time negative or moves through backwards', () => {
    expect(viewOf(desc(1), start(100), msg(-50))).toEqual({
      settledMs: 0,
      settledTurns: 0,
      active: { since: 101, through: 101 },
    });
    expect(viewOf(desc(1), start(100), end(-50))).toEqual({ settledMs: 0, settledTurns: 1, active: null });
  });

  it('a poisoned checkpoint state makes view throw (a cache miss)', () => {
    const poisoned = {
      counting: true,
      settledMs: -1,
      settledTurns: 0,
      since: null,
      through: null,
    } as SubagentTimingState;
    expect(() => subagentTimingUnit.view(poisoned)).toThrow(TypeError);
    const registry = new ProjectionRegistry({ units: [subagentTimingUnit] });
    const restored = registry.restore({
      header,
      rows: { subagentTiming: { stateVersion: 1, cut: SessionLogOffset(0), state: poisoned } },
      events: [],
    });
    expect(restored.kind === 'restored' && restored.refolded).toEqual(['subagentTiming']);
  });
});

describeUnitLaws(subagentTimingUnit, (state, event) => {
  const s = state as SubagentTimingState;
  if (event.type === SUBAGENT_DESCRIPTOR_EVENT || event.type === 'turn/start') return true;
  if (event.type === 'turn/end') return s.since !== null;
  return s.counting && s.through !== null && event.time > s.through;
});
