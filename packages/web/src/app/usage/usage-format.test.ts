import { describe, expect, it } from 'vitest';
import { dayLabel, formatCost, formatCostShort, formatTokens, formatTokensShort } from './usage-format.js';

describe('usage formatting', () => {
  it('writes costs in USD, null as a dash and a sliver as under a cent', () => {
    expect(formatCost(1234.5, 'en-US')).toBe('$1,234.50');
    expect(formatCost(0, 'en-US')).toBe('$0.00');
    expect(formatCost(0.004, 'en-US')).toBe('<$0.01');
    expect(formatCost(0.005, 'en-US')).toBe('$0.01');
    expect(formatCost(null, 'en-US')).toBe('—');
    // Axis ticks keep the digits that tell small amounts apart.
    expect(formatCostShort(0.025, 'en-US')).toBe('$0.025');
    expect(formatCostShort(1250, 'en-US')).toBe('$1.25K');
  });

  it('groups token digits, and shortens them for axes', () => {
    expect(formatTokens(1_234_567, 'en-US')).toBe('1,234,567');
    expect(formatTokensShort(950, 'en-US')).toBe('950');
    expect(formatTokensShort(1_250_000, 'en-US')).toBe('1.3M');
  });

  it('labels a day key as that calendar day, whatever the zone', () => {
    expect(dayLabel('2026-11-02', 'en-US')).toBe('Nov 2');
    expect(dayLabel('2026-01-01', 'en-US')).toBe('Jan 1');
    expect(dayLabel('garbage', 'en-US')).toBe('garbage');
  });
});
