import fc from 'fast-check';
import { Session, SessionLogOffset } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { ProjectionRegistry } from '../registry.js';
import { appendableLogArbitrary, headerArbitrary, logArbitrary } from '../testing/log-arbitrary.js';
import { appendInBatches, ScriptedSession } from '../testing/sessions.js';
import { BUILT_IN_UNITS } from './built-in.js';

describe('built-in units together', () => {
  it('register under their documented keys', () => {
    expect(new ProjectionRegistry({ units: BUILT_IN_UNITS }).keys()).toEqual([
      'title',
      'listMetadata',
      'modelSelection',
      'agentPreset',
      'usage',
      'continuedFrom',
    ]);
  });

  it('a live session appended in random batches snapshots exactly what a cold fold of its log computes', () => {
    fc.assert(
      fc.property(
        headerArbitrary,
        logArbitrary(60),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1 }),
        (header, events, sizes) => {
          const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
          const live = new ScriptedSession(header);
          registry.track(live.asSession());
          for (let at = 0, i = 0; at < events.length; i++) {
            const size = sizes[i % sizes.length]!;
            live.push(events.slice(at, at + size));
            at += size;
          }
          const cold = registry.foldAll(header, events);
          expect(registry.snapshot(live.asSession())).toEqual(cold.snapshot);
          const resumed = registry.restore({
            header,
            rows: registry.checkpoint(live.asSession()),
            events: [],
            from: SessionLogOffset(events.length),
          });
          expect(resumed.kind === 'restored' && resumed.projection.snapshot).toEqual(cold.snapshot);
        },
      ),
    );
  });

  it('a real live Session appended in random batches snapshots, for every built-in unit at once, what a cold fold computes', async () => {
    await fc.assert(
      fc.asyncProperty(
        headerArbitrary,
        appendableLogArbitrary(60),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1 }),
        async (header, { events, inputs }, sizes) => {
          const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
          const live = new Session({ header });
          registry.track(live);
          await appendInBatches(live, inputs, sizes);
          expect(live.events).toEqual(events);
          expect(registry.snapshot(live)).toEqual(registry.foldAll(header, events).snapshot);
        },
      ),
    );
  });
});
