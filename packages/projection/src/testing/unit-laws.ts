import fc from 'fast-check';
import { SessionLogOffset } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { ProjectionRegistry } from '../registry.js';
import type { AnyProjectionUnit } from '../types.js';
import { eventBodyArbitrary, headerArbitrary, logArbitrary, toEvents } from './log-arbitrary.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The laws every unit must obey, as fast-check properties over random logs. `reads` is the unit's
 * documented list of event types; every other type must leave the state reference unchanged.
 */
export function describeUnitLaws(unit: AnyProjectionUnit, reads: readonly string[]): void {
  describe(`${unit.key} unit laws`, () => {
    it('folding all events equals restoring a JSON checkpoint at any cut and folding the suffix', () => {
      fc.assert(
        fc.property(headerArbitrary, logArbitrary(), fc.nat(), (header, events, pick) => {
          const cut = pick % (events.length + 1);
          const registry = new ProjectionRegistry({ units: [unit] });
          const all = registry.foldAll(header, events);
          const rows = JSON.parse(
            JSON.stringify(registry.foldAll(header, events.slice(0, cut)).rows),
          ) as typeof all.rows;
          const fromCut = registry.restore({
            header,
            rows,
            events: events.slice(cut),
            from: SessionLogOffset(cut),
          });
          const fromZero = registry.restore({ header, rows, events });
          for (const restored of [fromCut, fromZero]) {
            if (restored.kind !== 'restored') throw new Error(`expected restored, got ${restored.kind}`);
            expect(restored.seeded).toEqual([unit.key]);
            expect(restored.projection.snapshot).toEqual(all.snapshot);
            expect(JSON.stringify(restored.projection.rows)).toBe(JSON.stringify(all.rows));
          }
        }),
      );
    });

    it('its value survives a JSON round trip, an explicit null included', () => {
      fc.assert(
        fc.property(headerArbitrary, logArbitrary(), (header, events) => {
          const { values } = new ProjectionRegistry({ units: [unit] }).foldAll(header, events).snapshot;
          const back = JSON.parse(JSON.stringify(values)) as Record<string, unknown>;
          expect(Object.keys(back)).toEqual([unit.key]);
          expect(back).toEqual(values);
        }),
      );
    });

    it('returns the same state reference for every event type it does not read', () => {
      fc.assert(
        fc.property(headerArbitrary, logArbitrary(), eventBodyArbitrary, (header, events, other) => {
          fc.pre(!reads.includes(other.type));
          let state: unknown = unit.init(header);
          for (const event of events) state = unit.apply(state, event);
          const [event] = toEvents([other], [1], events.length);
          expect(unit.apply(state, event!)).toBe(state);
        }),
      );
    });

    it('never throws and never mutates the state it is given', () => {
      fc.assert(
        fc.property(headerArbitrary, logArbitrary(), (header, events) => {
          let state: unknown = deepFreeze(unit.init(header));
          for (const event of events) state = deepFreeze(unit.apply(state, event));
          unit.view(state);
        }),
      );
    });
  });
}
