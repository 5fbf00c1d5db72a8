import { SessionLogOffset } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { ProjectionError } from './errors.js';
import { ProjectionRegistry } from './registry.js';
import { header, log } from './testing/events.js';
import { bomb, poisonedView, tickCounter } from './testing/sessions.js';
import { titleUnit } from './units/title/title.js';

const ticks = (n: number) => log(...Array.from({ length: n }, () => ['test/tick', {}] as const));
const registry = () => new ProjectionRegistry({ units: [tickCounter, titleUnit] });

describe('foldAll (cold prefix, all or none)', () => {
  it('computes every registered unit at the cut, with asOfSeq = cut − 1', () => {
    const folded = registry().foldAll(header(), ticks(3));
    expect(folded.cut).toBe(3);
    expect(folded.snapshot).toEqual({ asOfSeq: 2, values: { 'test/ticks': 3, title: null } });
    expect(folded.rows['test/ticks']).toEqual({ stateVersion: 1, cut: 3, state: 3 });
  });

  it('throws one PROJECTION_FAILED when any unit throws: no partial result', () => {
    const r = new ProjectionRegistry({ units: [tickCounter, bomb] });
    const events = log(['test/tick', {}], ['test/boom', {}]);
    expect(() => r.foldAll(header(), events)).toThrow(ProjectionError);
    try {
      r.foldAll(header(), events);
    } catch (error) {
      expect((error as ProjectionError).toJSON()).toMatchObject({
        code: 'PROJECTION_FAILED',
        details: { key: 'test/bomb', seq: 1, phase: 'apply' },
      });
    }
  });

  it('refuses events that are not contiguous from seq 0', () => {
    const events = ticks(3);
    expect(() => registry().foldAll(header(), [events[0]!, events[2]!])).toThrow(/expected seq 1, got 2/);
  });
});

describe('restore', () => {
  const events = ticks(5);
  const rowsAt = (cut: number) => registry().foldAll(header(), events.slice(0, cut)).rows;

  it('seeds from usable rows and folds only the suffix', () => {
    const result = registry().restore({
      header: header(),
      rows: rowsAt(3),
      events: events.slice(3),
      from: SessionLogOffset(3),
    });
    expect(result).toMatchObject({ kind: 'restored', seeded: ['test/ticks', 'title'], refolded: [] });
    if (result.kind === 'restored')
      expect(result.projection.snapshot).toEqual({ asOfSeq: 4, values: { 'test/ticks': 5, title: null } });
  });

  it('discards a row with another stateVersion and refolds from 0', () => {
    const rows = { ...rowsAt(3), 'test/ticks': { stateVersion: 9, cut: SessionLogOffset(3), state: 100 } };
    const result = registry().restore({ header: header(), rows, events });
    expect(result).toMatchObject({ kind: 'restored', refolded: ['test/ticks'] });
    if (result.kind === 'restored') expect(result.projection.snapshot.values['test/ticks' as never]).toBe(5);
  });

  it('discards a row whose cut lies beyond the given events', () => {
    const rows = { 'test/ticks': { stateVersion: 1, cut: SessionLogOffset(9), state: 9 } };
    const result = registry().restore({ header: header(), rows, events });
    expect(result).toMatchObject({ kind: 'restored', refolded: ['test/ticks', 'title'] });
  });

  it('asks for the prefix when a unit has no usable row at or after `from`', () => {
    const rows = { 'test/ticks': rowsAt(3)['test/ticks']! };
    expect(
      registry().restore({ header: header(), rows, events: events.slice(4), from: SessionLogOffset(4) }),
    ).toEqual({
      kind: 'needs-prefix',
      keys: ['test/ticks', 'title'],
    });
  });

  it('treats a poisoned row (its view throws) as a miss and refolds to the right value', () => {
    const r = new ProjectionRegistry({ units: [poisonedView] });
    const rows = {
      'test/poisoned-view': { stateVersion: 1, cut: SessionLogOffset(2), state: { poisoned: true } },
    };
    const result = r.restore({ header: header(), rows, events: ticks(2) });
    expect(result).toMatchObject({ kind: 'restored', refolded: ['test/poisoned-view'] });
    if (result.kind === 'restored')
      expect(result.projection.snapshot.values).toEqual({ 'test/poisoned-view': 'fine' });
  });

  it('treats a row state the unit throws on while folding on as a miss', () => {
    const fragile = {
      ...tickCounter,
      apply: (s: number, e: { type: string }) => (e.type === 'test/tick' ? s.valueOf() + 1 : s),
    };
    const rows = { 'test/ticks': { stateVersion: 1, cut: SessionLogOffset(1), state: null } };
    const result = new ProjectionRegistry({ units: [fragile] }).restore({
      header: header(),
      rows,
      events: ticks(3),
    });
    expect(result).toMatchObject({ kind: 'restored', refolded: ['test/ticks'] });
  });

  it('restoreStart is the lowest usable row cut, 0 when a unit has none', () => {
    const r = registry();
    const rows = { ...rowsAt(3), title: { stateVersion: 1, cut: SessionLogOffset(2), state: null } };
    expect(r.restoreStart(rows, SessionLogOffset(5))).toBe(2);
    expect(r.restoreStart(rows, SessionLogOffset(2))).toBe(0);
    expect(r.restoreStart({ title: rows.title }, SessionLogOffset(5))).toBe(0);
  });
});
