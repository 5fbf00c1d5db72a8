import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HARNESSES } from '../harness-labels.js';
import { isDay, readUsageFilter, writeUsageFilter, type UsageFilter } from './usage-filter-params.js';

/** Calendar days as `YYYY-MM-DD`, from any instant fast-check picks (so leap days come up). */
const day = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

const filter: fc.Arbitrary<UsageFilter> = fc.record({
  cwd: fc.option(fc.string({ minLength: 1 }), { nil: null }),
  harness: fc.option(fc.constantFrom(...HARNESSES), { nil: null }),
  since: fc.option(day, { nil: null }),
  until: fc.option(day, { nil: null }),
});

describe('usage filter parameters', () => {
  it('reads cwd, harness, since and until; absent or empty ones are all', () => {
    expect(readUsageFilter('?cwd=%2Fproj&harness=codex&since=2026-11-02&until=2026-11-30')).toEqual({
      cwd: '/proj',
      harness: 'codex',
      since: '2026-11-02',
      until: '2026-11-30',
    });
    expect(readUsageFilter('')).toEqual({ cwd: null, harness: null, since: null, until: null });
    expect(readUsageFilter('?cwd=&since=')).toEqual({ cwd: null, harness: null, since: null, until: null });
  });

  it('reads what the wire would refuse as all: a harness name of the wrong shape, a date that is no calendar day', () => {
    expect(readUsageFilter('?harness=Emacs!&since=2026-02-30&until=yesterday')).toEqual({
      cwd: null,
      harness: null,
      since: null,
      until: null,
    });
    expect(readUsageFilter('?harness=../codex').harness).toBeNull();
    // A harness this build has no label for is still a harness (a newer importer's): kept.
    expect(readUsageFilter('?harness=opencode').harness).toBe('opencode');
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2026-1-02')).toBe(false);
  });

  it('writes only its own parameters and keeps the others', () => {
    const none = { cwd: null, harness: null, since: null, until: null };
    expect(writeUsageFilter('?token=t', { ...none, since: '2026-11-02' })).toBe('?token=t&since=2026-11-02');
    expect(writeUsageFilter('?cwd=%2Fa&token=t&until=2026-01-01', none)).toBe('?token=t');
    expect(writeUsageFilter('', none)).toBe('');
  });

  it('reads back what it wrote, for any filter', () => {
    fc.assert(
      fc.property(filter, fc.constantFrom('', '?seq=7', '?token=x&seq=1'), (value, search) => {
        const written = writeUsageFilter(search, value);
        expect(readUsageFilter(written)).toEqual(value);
        expect(new URLSearchParams(written).get('token')).toBe(new URLSearchParams(search).get('token'));
      }),
    );
  });
});
