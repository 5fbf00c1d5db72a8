import fc from 'fast-check';
import { ProjectionRegistry, type AnyProjectionUnit } from '@strand/projection';
import { Session, SessionLogOffset, type SessionEvent } from '@strand/session';
import { describe, expect, it } from 'vitest';
import {
  subagentEventBodyArbitrary,
  subagentLogArbitrary,
  toLog,
  unitHeaderArbitrary,
} from './subagent-log-arbitrary.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The projection unit laws (SYSTEM.md §5, ACCEPTANCE "Projections and cache") as fast-check
 * properties over random subagent logs. `mayChange(state, event)` says when `apply` may return a
 * new state; whenever it says no, the same reference must come back.
 */
export function describeUnitLaws(
  unit: AnyProjectionUnit,
  mayChange: (state: unknown, event: SessionEvent) => boolean,
): void {
  describe(`${unit.key} unit laws`, () => {
    it('folding all events equals restoring a JSON checkpoint at any cut and folding the suffix', () => {
      fc.assert(
        fc.property(unitHeaderArbitrary, subagentLogArbitrary(), fc.nat(), (header, { events }, pick) => {
          const cut = pick % (events.length + 1);
          const registry = new ProjectionRegistry({ units: [unit] });
          const all = registry.foldAll(header, events);
          const rows = JSON.parse(
            JSON.stringify(registry.foldAll(header, events.slice(0, cut)).rows),
          ) as typeof all.rows;
          const restored = registry.restore({
            header,
            rows,
            events: events.slice(cut),
            from: SessionLogOffset(cut),
          });
          if (restored.kind !== 'restored') throw new Error(`expected restored, got ${restored.kind}`);
          expect(restored.seeded).toEqual([unit.key]);
          expect(restored.projection.snapshot).toEqual(all.snapshot);
          expect(JSON.stringify(restored.projection.rows)).toBe(JSON.stringify(all.rows));
        }),
      );
    });

    it('its value survives a JSON round trip, an explicit null included', () => {
      fc.assert(
        fc.property(unitHeaderArbitrary, subagentLogArbitrary(), (header, { events }) => {
          const { values } = new ProjectionRegistry({ units: [unit] }).foldAll(header, events).snapshot;
          const back = JSON.parse(JSON.stringify(values)) as Record<string, unknown>;
          expect(Object.keys(back)).toEqual([unit.key]);
          expect(back).toEqual(values);
        }),
      );
    });

    it('returns the same state reference for every event that cannot change it', () => {
      fc.assert(
        fc.property(
          unitHeaderArbitrary,
          subagentLogArbitrary(),
          subagentEventBodyArbitrary,
          fc.integer({ min: -5, max: 5 }),
          (header, { events }, other, step) => {
            let state: unknown = unit.init(header);
            for (const event of events) state = unit.apply(state, event);
            const [event] = toLog([[other, step]], events.length, events.at(-1)?.time ?? 1_000_000).events;
            if (!mayChange(state, event!)) expect(unit.apply(state, event!)).toBe(state);
          },
        ),
      );
    });

    it('never throws and never mutates the state it is given', () => {
      fc.assert(
        fc.property(unitHeaderArbitrary, subagentLogArbitrary(), (header, { events }) => {
          let state: unknown = deepFreeze(unit.init(header));
          for (const event of events) state = deepFreeze(unit.apply(state, event));
          unit.view(state);
        }),
      );
    });

    it('a live session appended in random batches snapshots exactly what a cold fold of its log computes', async () => {
      await fc.assert(
        fc.asyncProperty(
          unitHeaderArbitrary,
          subagentLogArbitrary(),
          fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1 }),
          async (header, { inputs, events }, sizes) => {
            const registry = new ProjectionRegistry({ units: [unit] });
            const live = new Session({ header });
            registry.track(live);
            for (let at = 0, i = 0; at < inputs.length; i++) {
              const size = sizes[i % sizes.length]!;
              await live.append(inputs.slice(at, at + size));
              at += size;
            }
            expect(registry.snapshot(live)).toEqual(registry.foldAll(header, events).snapshot);
          },
        ),
      );
    });
  });
}
