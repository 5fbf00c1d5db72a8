import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTimeZone, parseBound, periodKey, startOfLocalDay } from './periods.js';

const ZONES = ['UTC', 'Europe/Berlin', 'America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Auckland'];

describe('periods', () => {
  it('keys an instant by its local day, Monday-based week and month in the zone', () => {
    const t = Date.parse('2026-12-06T23:30:00Z'); // a Sunday in UTC, already Monday in Berlin
    expect(periodKey(t, 'day', 'UTC')).toBe('2026-12-06');
    expect(periodKey(t, 'day', 'Europe/Berlin')).toBe('2026-12-07');
    expect(periodKey(t, 'week', 'UTC')).toBe('2026-11-30');
    expect(periodKey(t, 'week', 'Europe/Berlin')).toBe('2026-12-07');
    expect(periodKey(t, 'month', 'America/Los_Angeles')).toBe('2026-12');
    expect(periodKey(Date.parse('2027-01-01T03:00:00Z'), 'month', 'America/Los_Angeles')).toBe('2026-12');
  });

  it('finds the first instant of a local day, across daylight saving changes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2040-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        (zone, date) => {
          const [y, m, d] = periodKey(date.getTime(), 'day', zone).split('-').map(Number) as [
            number,
            number,
            number,
          ];
          const start = startOfLocalDay(y, m, d, zone);
          // It is that day there, and a second earlier is the day before.
          expect(periodKey(start, 'day', zone)).toBe(periodKey(date.getTime(), 'day', zone));
          expect(periodKey(start - 1000, 'day', zone)).not.toBe(periodKey(start, 'day', zone));
          expect(start).toBeLessThanOrEqual(date.getTime());
        },
      ),
    );
  });

  it('reads --since and --until as whole local days or exact ISO instants, and refuses anything else', () => {
    expect(parseBound('2026-12-04', 'since', 'UTC')).toBe(Date.parse('2026-12-04T00:00:00Z'));
    expect(parseBound('2026-12-04', 'until', 'UTC')).toBe(Date.parse('2026-12-05T00:00:00Z'));
    expect(parseBound('2026-12-04', 'since', 'Europe/Berlin')).toBe(Date.parse('2026-12-03T23:00:00Z'));
    expect(parseBound('2026-12-04T10:15:00+01:00', 'since', 'UTC')).toBe(Date.parse('2026-12-04T09:15:00Z'));
    for (const bad of ['2026-02-30', 'yesterday', '2026-12-04T10:15', '12/04/2026', ''])
      expect(parseBound(bad, 'since', 'UTC'), bad).toBeUndefined();
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
