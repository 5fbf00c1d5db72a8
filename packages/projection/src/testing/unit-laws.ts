import fc from 'fast-check';
import {
  Session,
  SessionLogOffset,
  type SessionEvent,
  type SessionEventInput,
  type SessionHeader,
} from '@strand/session';
import { describe, expect, it } from 'vitest';
import { ProjectionRegistry } from '../registry.js';
import type { AnyProjectionUnit } from '../types.js';
import {
  appendableLogArbitrary,
  eventBodyArbitrary,
  headerArbitrary,
  logArbitrary,
  toEvents,
} from './log-arbitrary.js';
import { appendInBatches } from './sessions.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A random log for the laws; `inputs` (append inputs with their times) enable the live law. */
export interface LawLog {
  readonly events: readonly SessionEvent[];
  readonly inputs?: readonly SessionEventInput[];
}

/** What the laws fold over, for one family of units. */
export interface UnitLawDomain {
  readonly headers: fc.Arbitrary<SessionHeader>;
  readonly logs: fc.Arbitrary<LawLog>;
  /** One more event that continues `events` (next seq, a time at or after the last). */
  readonly nextEvent: (events: readonly SessionEvent[]) => fc.Arbitrary<SessionEvent>;
  /** When `apply` may return a new state; whenever it says no, the same reference must come back. */
  readonly mayChange: (state: unknown, event: SessionEvent) => boolean;
  /** True when every log carries valid append `inputs`: the live-vs-cold law then runs. */
  readonly appendable?: boolean;
  /**
   * Logs of valid appends for the live-vs-cold law, when `logs` holds corrupt data a session
   * would refuse; given, the law runs over these (whatever `appendable` says).
   */
  readonly liveLogs?: fc.Arbitrary<LawLog>;
}

/**
 * The laws every projection unit obeys (packages/projection/README.md), as
 * fast-check properties over a domain's random logs: restore-and-fold equals fold, the value
 * survives JSON, unchanged state keeps its reference, nothing throws or mutates, the declared
 * `dataReads` are all the data it reads, and — when the
 * domain yields append inputs — a live session's snapshot equals a cold fold of its log.
 */
export function describeUnitLawsOver(unit: AnyProjectionUnit, domain: UnitLawDomain): void {
  const { headers, logs } = domain;
  describe(`${unit.key} unit laws`, () => {
    it('folding all events equals restoring a JSON checkpoint at any cut (or at 0) and folding the rest', () => {
      fc.assert(
        fc.property(headers, logs, fc.nat(), fc.nat(), (header, { events }, pick, inheritedPick) => {
          const cut = pick % (events.length + 1);
          // Any inherited count, as a seeded child's fold gets it (the unit may read it at init).
          const inheritedEventCount = inheritedPick % (events.length + 1);
          const registry = new ProjectionRegistry({ units: [unit] });
          const all = registry.foldAll(header, events, inheritedEventCount);
          const rows = JSON.parse(
            JSON.stringify(registry.foldAll(header, events.slice(0, cut), inheritedEventCount).rows),
          ) as typeof all.rows;
          const fromCut = registry.restore({
            header,
            inheritedEventCount,
            rows,
            events: events.slice(cut),
            from: SessionLogOffset(cut),
          });
          const fromZero = registry.restore({ header, inheritedEventCount, rows, events });
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
        fc.property(headers, logs, (header, { events }) => {
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
          headers,
          logs.chain((log) => domain.nextEvent(log.events).map((next) => ({ log, next }))),
          fc.nat(),
          (header, { log, next }, inheritedPick) => {
            const origin = { inheritedEventCount: inheritedPick % (log.events.length + 2) };
            let state: unknown = unit.init(header, origin);
            for (const event of log.events) state = unit.apply(state, event);
            if (!domain.mayChange(state, next)) expect(unit.apply(state, next)).toBe(state);
          },
        ),
      );
    });

    it('never throws and never mutates the state it is given', () => {
      fc.assert(
        fc.property(headers, logs, fc.nat(), (header, { events }, inheritedPick) => {
          const origin = { inheritedEventCount: inheritedPick % (events.length + 1) };
          let state: unknown = deepFreeze(unit.init(header, origin));
          for (const event of events) state = deepFreeze(unit.apply(state, event));
          unit.view(state);
        }),
      );
    });

    const { dataReads } = unit;
    if (dataReads !== undefined) {
      it('folds to the same state when the data of every type outside dataReads is elided (a scan)', () => {
        fc.assert(
          fc.property(headers, logs, (header, { events }) => {
            const elided = events.map((event) =>
              dataReads.includes(event.type) ? event : Object.freeze({ ...event, data: null }),
            );
            const registry = new ProjectionRegistry({ units: [unit] });
            const full = registry.foldAll(header, events);
            const scanned = registry.foldAll(header, elided);
            expect(scanned.snapshot).toEqual(full.snapshot);
            expect(JSON.stringify(scanned.rows)).toBe(JSON.stringify(full.rows));
          }),
        );
      });
    }

    const liveLogs = domain.liveLogs ?? (domain.appendable === true ? logs : undefined);
    if (liveLogs === undefined) return;
    it('a live session appended in random batches snapshots exactly what a cold fold of its log computes', async () => {
      await fc.assert(
        fc.asyncProperty(
          headers,
          liveLogs,
          fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1 }),
          async (header, { inputs, events }, sizes) => {
            if (inputs === undefined) throw new Error('an appendable domain yielded a log without inputs');
            const registry = new ProjectionRegistry({ units: [unit] });
            const live = new Session({ header });
            registry.track(live);
            await appendInBatches(live, inputs, sizes);
            expect(registry.snapshot(live)).toEqual(registry.foldAll(header, events).snapshot);
          },
        ),
      );
    });
  });
}

/**
 * The laws for the built-in units over the core vocabulary (valid and corrupt data; the
 * live-vs-cold law over the valid appends only). `reads` is the unit's documented list of event
 * types; every other type must leave the state unchanged.
 */
export function describeUnitLaws(unit: AnyProjectionUnit, reads: readonly string[]): void {
  describeUnitLawsOver(unit, {
    headers: headerArbitrary,
    logs: logArbitrary().map((events) => ({ events })),
    nextEvent: (events) =>
      eventBodyArbitrary.map(
        (body) => toEvents([body], [(events.at(-1)?.time ?? 1_000) - 1_000 + 1], events.length)[0]!,
      ),
    mayChange: (_state, event) => reads.includes(event.type),
    liveLogs: appendableLogArbitrary(),
  });
}
