import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newSessionHeader, SessionId } from '@strand/session';
import { activeFilter, facetConditions, filterKey, indexedFacets, type FacetExtractor } from './facets.js';

const header = newSessionHeader({ id: SessionId('s'), createdAt: 1, cwd: '/work' });
const NONE = {
  cwd: null,
  projectName: null,
  harness: null,
  parentSession: null,
  origin: null,
  forkedFrom: null,
};

describe('facets', () => {
  it('files a session under no facet without an extractor, or when the extractor throws', () => {
    expect(indexedFacets(undefined, header)).toEqual(NONE);
    const throwing: FacetExtractor = () => {
      throw new Error('odd header');
    };
    expect(indexedFacets(throwing, header)).toEqual(NONE);
  });

  it('keeps string facets and drops anything else', () => {
    expect(indexedFacets((h) => ({ cwd: h.cwd, harness: 'codex' }), header)).toEqual({
      ...NONE,
      cwd: '/work',
      projectName: 'work',
      harness: 'codex',
    });
    const lineage = { parentSession: 'p', origin: 'subagent', forkedFrom: 'f' };
    expect(indexedFacets(() => lineage, header)).toEqual({ ...NONE, ...lineage });
    const odd = (() => ({ cwd: 7, harness: null, origin: {}, forkedFrom: 3 })) as unknown as FacetExtractor;
    expect(indexedFacets(odd, header)).toEqual(NONE);
  });

  it('an empty filter is no filter', () => {
    expect(activeFilter({})).toBeUndefined();
    expect(activeFilter({ cwd: undefined, projectName: undefined, harness: undefined })).toBeUndefined();
    expect(filterKey(activeFilter({}))).toBeNull();
  });

  it('two filters share a snapshot key exactly when they narrow the same (property)', () => {
    const value = fc.option(fc.string({ maxLength: 6 }), { nil: undefined });
    const filter = fc.record({ cwd: value, projectName: value, harness: value });
    fc.assert(
      fc.property(filter, filter, (a, b) => {
        const same =
          (a.cwd ?? null) === (b.cwd ?? null) &&
          (a.projectName ?? null) === (b.projectName ?? null) &&
          (a.harness ?? null) === (b.harness ?? null);
        expect(filterKey(activeFilter(a)) === filterKey(activeFilter(b))).toBe(same);
      }),
    );
  });

  it('files the project name as the cwd facet’s last folder name, and none without a cwd', () => {
    expect(indexedFacets(() => ({ cwd: 'C:\\src\\web\\' }), header).projectName).toBe('web');
    expect(indexedFacets(() => ({ harness: 'codex' }), header).projectName).toBeNull();
  });

  it('a filter narrows by exactly its given fields, in one fixed column order (property)', () => {
    const value = fc.option(fc.string({ maxLength: 6 }), { nil: undefined });
    fc.assert(
      fc.property(fc.record({ cwd: value, projectName: value, harness: value }), (given) => {
        const active = activeFilter(given);
        const expected = [
          ...(given.cwd === undefined ? [] : [{ column: 'cwd', value: given.cwd }]),
          ...(given.projectName === undefined ? [] : [{ column: 'project_name', value: given.projectName }]),
          ...(given.harness === undefined ? [] : [{ column: 'harness', value: given.harness }]),
        ];
        expect(active === undefined ? [] : facetConditions(active)).toEqual(expected);
      }),
    );
  });
});
