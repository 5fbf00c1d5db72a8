import fc from 'fast-check';
import { ProjectionRegistry, UNSEEDED } from '@strand/projection';
import { SessionLogOffset } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { SUBAGENT_DESCRIPTOR_EVENT, parseSubagentDescriptor } from '../descriptor.js';
import { descriptorDataArbitrary, toLog, unitHeaderArbitrary } from '../testing/subagent-log-arbitrary.js';
import { describeUnitLaws } from '../testing/unit-laws.js';
import { subagentIdentityUnit } from './identity-unit.js';
import type { SubagentIdentityState } from './projection-types.js';

const header = { version: 1, id: 'c' as never, createdAt: 0, isSeeded: false } as const;
const d = (data: unknown): readonly [{ type: string; data: unknown }, number] => [
  { type: SUBAGENT_DESCRIPTOR_EVENT, data },
  1,
];
const other = (type: string, data: unknown = {}): readonly [{ type: string; data: unknown }, number] => [
  { type, data },
  1,
];
const viewOf = (...pairs: (readonly [{ type: string; data: unknown }, number])[]): unknown =>
  new ProjectionRegistry({ units: [subagentIdentityUnit] }).foldAll(header, toLog(pairs).events).snapshot
    .values.subagent;

describe('subagent identity unit', () => {
  it('is registered under key subagent with stateVersion 2 (bumped when seq was added)', () => {
    expect(subagentIdentityUnit.key).toBe('subagent');
    expect(subagentIdentityUnit.stateVersion).toBe(2);
  });

  it('is the null sentinel before any descriptor; its state is the empty wrapper', () => {
    expect(viewOf(other('turn/start'))).toBeNull();
    expect(subagentIdentityUnit.init(header, UNSEEDED)).toEqual({});
  });

  it('folds a continuable descriptor to mode, mandatory label and the descriptor event’s seq', () => {
    expect(viewOf(other('turn/start'), d({ version: 2, mode: 'continuable', label: 'reviewer' }))).toEqual({
      mode: 'continuable',
      label: 'reviewer',
      seq: 1,
    });
  });

  it('folds a one-shot descriptor with its optional label present or absent (no label key)', () => {
    expect(viewOf(d({ version: 2, mode: 'one-shot', label: 'scout' }))).toEqual({
      mode: 'one-shot',
      label: 'scout',
      seq: 0,
    });
    const bare = viewOf(d({ version: 2, mode: 'one-shot' }));
    expect(bare).toEqual({ mode: 'one-shot', seq: 0 });
    expect(Object.keys(bare as object)).toEqual(['mode', 'seq']);
  });

  it('is last-wins over subagent/descriptor (an ancestor’s descriptor is overridden by a later one)', () => {
    expect(
      viewOf(
        d({ version: 2, mode: 'continuable', label: 'ancestor' }),
        other('turn/start'),
        d({ version: 2, mode: 'one-shot' }),
      ),
    ).toEqual({
      mode: 'one-shot',
      seq: 2,
    });
  });

  it('a later corrupt or unknown-version descriptor resets to the null sentinel instead of keeping the old identity', () => {
    const good = d({ version: 2, mode: 'continuable', label: 'a' });
    expect(viewOf(good, d({ version: 2, mode: 'continuable' }))).toBeNull();
    expect(viewOf(good, d({ version: 3, mode: 'continuable', label: 'a' }))).toBeNull();
    expect(viewOf(good, d('not an object'))).toBeNull();
  });

  it('folds exactly what the one descriptor parser accepts (no second interpretation)', () => {
    fc.assert(
      fc.property(descriptorDataArbitrary, (data) => {
        const parsed = parseSubagentDescriptor(data);
        const view = viewOf(d(data));
        if (parsed.kind !== 'ok') expect(view).toBeNull();
        else {
          const { version: _v, ...identity } = parsed.descriptor;
          expect(view).toEqual({ ...identity, seq: 0 });
        }
      }),
    );
  });

  it('the null sentinel survives JSON as an explicit key, so a pushed reset replaces a stale identity', () => {
    const values = new ProjectionRegistry({ units: [subagentIdentityUnit] }).foldAll(
      header,
      toLog([d(null)]).events,
    ).snapshot.values;
    expect(JSON.stringify(values)).toBe('{"subagent":null}');
  });

  it('a poisoned checkpoint state makes view throw (a cache miss), never a wrong identity', () => {
    const poisoned = { identity: { mode: 'continuable', seq: 3 } } as unknown as SubagentIdentityState;
    expect(() => subagentIdentityUnit.view(poisoned)).toThrow(TypeError);
    const registry = new ProjectionRegistry({ units: [subagentIdentityUnit] });
    const { events } = toLog([d({ version: 2, mode: 'one-shot' })]);
    const restored = registry.restore({
      header,
      rows: { subagent: { stateVersion: 2, cut: SessionLogOffset(1), state: poisoned } },
      events,
    });
    expect(restored.kind === 'restored' && restored.refolded).toEqual(['subagent']);
    expect(restored.kind === 'restored' && restored.projection.snapshot.values.subagent).toEqual({
      mode: 'one-shot',
      seq: 0,
    });
  });

  it('a checkpoint row of stateVersion 1 (before seq) is not restored', () => {
    const registry = new ProjectionRegistry({ units: [subagentIdentityUnit] });
    const { events } = toLog([d({ version: 2, mode: 'one-shot' })]);
    const rows = {
      subagent: { stateVersion: 1, cut: SessionLogOffset(1), state: { identity: { mode: 'one-shot' } } },
    };
    const restored = registry.restore({ header, rows, events });
    expect(restored.kind === 'restored' && restored.refolded).toEqual(['subagent']);
    expect(restored.kind === 'restored' && restored.projection.snapshot.values.subagent).toEqual({
      mode: 'one-shot',
      seq: 0,
    });
  });

  it('the header never seeds an identity (origin is not a descriptor)', () => {
    fc.assert(
      fc.property(unitHeaderArbitrary, (h) => {
        expect(subagentIdentityUnit.view(subagentIdentityUnit.init(h, UNSEEDED))).toBeNull();
      }),
    );
  });
});

describeUnitLaws(subagentIdentityUnit, (_state, event) => event.type === SUBAGENT_DESCRIPTOR_EVENT);
