import { describe, expect, it } from 'vitest';
import { bundledPrices, costOf, parsePricingFile, withOverrides } from './pricing.js';

const AT = Date.parse('2026-12-01T00:00:00Z');

describe('pricing', () => {
  it('reads per-kind rates off the bundled table, with the long-context tier apart', () => {
    const table = bundledPrices();
    const base = table.rates('anthropic', 'claude-sonnet-4-5', false, AT)!;
    const long = table.rates('anthropic', 'claude-sonnet-4-5', true, AT)!;
    // Anthropic's published prices for Sonnet 4.5 (USD per million tokens), and the >200k tier.
    expect(base).toEqual({ input: 3, output: 15, cacheRead: expect.closeTo(0.3, 9), cacheWrite: 3.75 });
    expect(long.input).toBe(6);
    expect(long.output).toBe(22.5);
    // A harness's custom provider name falls back to the model alone.
    expect(table.rates('my-proxy', 'claude-sonnet-4-5', false, AT)).toEqual(base);
    expect(table.rates('anthropic', 'no-such-model', false, AT)).toBeUndefined();
  });

  it('prices tokens per kind', () => {
    const rates = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    expect(costOf({ input: 1_000_000, output: 0, cacheCreation: 0, cacheRead: 0 }, rates)).toBe(3);
    expect(
      costOf({ input: 0, output: 2_000_000, cacheCreation: 1_000_000, cacheRead: 10_000_000 }, rates),
    ).toBeCloseTo(30 + 3.75 + 3, 9);
  });

  it('a pricing file overrides the models it names, and says what is wrong with a bad one', () => {
    const file = parsePricingFile(
      JSON.stringify({ models: { 'my-model': { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 } } }),
    );
    if (typeof file === 'string') throw new Error(file);
    const table = withOverrides(bundledPrices(), file.models, 'prices.json');
    expect(table.rates(null, 'my-model', false, AT)).toEqual({
      input: 1,
      output: 2,
      cacheRead: 0.1,
      cacheWrite: 1.25,
    });
    expect(table.rates(null, 'my-model', true, AT)?.input).toBe(1);
    expect(table.rates('anthropic', 'claude-sonnet-4-5', false, AT)?.input).toBe(3);
    expect(table.source).toBe('prices.json, then genai-prices (bundled data)');
    expect(parsePricingFile('{')).toMatch(/^not JSON/);
    expect(parsePricingFile('{"models":{"m":{"input":-1,"output":1,"cacheRead":0,"cacheWrite":0}}}')).toMatch(
      /"m"/,
    );
    expect(parsePricingFile('[]')).toMatch(/expected/);
  });
});
