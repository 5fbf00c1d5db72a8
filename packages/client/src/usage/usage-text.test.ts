import { describe, expect, it } from 'vitest';
import { modelNames, readUsageValue, usageLine } from './usage-text.js';

const tokens = (partial: Partial<Record<string, number>> = {}) => ({
  input: 0,
  output: 0,
  cacheCreation: 0,
  cacheRead: 0,
  reasoning: 0,
  ...partial,
});

describe('usage text', () => {
  it('reads the usage value off the wire and refuses any other shape', () => {
    const value = {
      own: tokens({ input: 5 }),
      inherited: tokens(),
      byModel: [{ provider: 'p', model: 'm', ...tokens() }],
    };
    expect(readUsageValue(value)).toBe(value);
    expect(readUsageValue({ input: 1, output: 2 })).toBeUndefined();
    expect(readUsageValue({ ...value, own: { ...tokens(), cacheRead: -1 } })).toBeUndefined();
    expect(readUsageValue({ ...value, byModel: [{ model: 'm' }] })).toBeUndefined();
    expect(readUsageValue(null)).toBeUndefined();
  });

  it('names fresh input and output, and the cache parts only when there are any', () => {
    expect(usageLine(tokens({ input: 12400, output: 3100 }), 'en-US')).toBe('12,400 in · 3,100 out');
    expect(
      usageLine(tokens({ input: 1, output: 2, cacheRead: 1_200_000, cacheCreation: 40_000 }), 'en-US'),
    ).toBe('1 in · 2 out · 1,200,000 cache read · 40,000 cache write');
  });

  it('lists the named models by output, each once', () => {
    const value = {
      own: tokens(),
      inherited: tokens(),
      byModel: [
        { provider: null, model: null, longContext: false, ...tokens({ output: 1 }) },
        { provider: 'a', model: 'haiku', longContext: false, ...tokens({ output: 5 }) },
        { provider: 'a', model: 'opus', longContext: false, ...tokens({ output: 4 }) },
        // One model's long-context responses are the same model: named once, their output counted.
        { provider: 'a', model: 'opus', longContext: true, ...tokens({ output: 46 }) },
      ],
    };
    expect(modelNames(value)).toEqual(['opus', 'haiku']);
  });
});
