import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ProjectionLookup } from '@strand/client';
import { descriptorRole, parentName, roleText } from './descriptor-line.js';

const known = (value: unknown): ProjectionLookup => ({ known: true, value, seq: 9 });
const UNKNOWN: ProjectionLookup = { known: false };

describe('the descriptor row', () => {
  it('says the label and the mode of the identity this descriptor stands up', () => {
    const role = descriptorRole(0, known({ mode: 'one-shot', label: 'reviewer', seq: 0 }));
    expect(role).toEqual({ kind: 'identity', mode: 'one-shot', label: 'reviewer' });
    expect(roleText(role)).toBe('reviewer (one-shot)');
    expect(roleText(descriptorRole(3, known({ mode: 'continuable', label: 'planner', seq: 3 })))).toBe(
      'planner (continuable)',
    );
  });

  it('says the mode alone for a one-shot child without a label', () => {
    expect(roleText(descriptorRole(0, known({ mode: 'one-shot', seq: 0 })))).toBe('one-shot agent');
  });

  it('says an earlier descriptor was replaced, by the seq of the one the identity stands on', () => {
    const role = descriptorRole(0, known({ mode: 'continuable', label: 'b', seq: 7 }));
    expect(role).toEqual({ kind: 'replaced', by: 7 });
    expect(roleText(role)).toBe('identity replaced at #7');
  });

  it('says the identity is unreadable when the unit folded it to nothing', () => {
    expect(roleText(descriptorRole(0, known(null)))).toMatch(/^identity unreadable/);
  });

  it('says nothing before the projection arrives, or while it still describes an earlier descriptor', () => {
    expect(roleText(descriptorRole(0, UNKNOWN))).toBeUndefined();
    expect(roleText(descriptorRole(5, known({ mode: 'one-shot', label: 'a', seq: 2 })))).toBeUndefined();
  });

  it('reads any projection value without throwing, and finds an identity only in an identity', () => {
    const identityLike = fc.record(
      {
        mode: fc.oneof(fc.constantFrom('one-shot', 'continuable'), fc.jsonValue()),
        label: fc.oneof(fc.string(), fc.jsonValue()),
        seq: fc.oneof(fc.nat(5), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.nat(5), fc.oneof(fc.jsonValue(), identityLike), (seq, value) => {
        const role = descriptorRole(seq, known(value));
        expect(typeof roleText(role)).toMatch(/^(string|undefined)$/);
        if (role.kind !== 'identity') return;
        expect(['one-shot', 'continuable']).toContain(role.mode);
        expect(role.label === undefined || (typeof role.label === 'string' && role.label !== '')).toBe(true);
        expect((value as { seq?: unknown }).seq).toBe(seq);
      }),
    );
  });

  it('names the parent by its title when the store knows one, else by its id', () => {
    expect(parentName('p-1', known('Fix the writer'))).toBe('Fix the writer');
    expect(parentName('p-1', known(null))).toBe('p-1');
    expect(parentName('p-1', known('  '))).toBe('p-1');
    expect(parentName('p-1', UNKNOWN)).toBe('p-1');
  });
});
