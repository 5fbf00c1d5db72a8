import { createRequire } from 'node:module';
import type * as GenaiPrices from '@pydantic/genai-prices';

/**
 * `@pydantic/genai-prices` carries every provider's price list (~30k lines): loaded on the first
 * price asked, not with the host, so a `strand list` or a follow never parses it (it cost a third
 * of `strand list`'s module compile time). Its CommonJS build, so a synchronous `rates()` can load it.
 */
let genaiPrices: typeof GenaiPrices | undefined;
function calcPrice(
  ...args: Parameters<typeof GenaiPrices.calcPrice>
): ReturnType<typeof GenaiPrices.calcPrice> {
  genaiPrices ??= createRequire(import.meta.url)('@pydantic/genai-prices') as typeof GenaiPrices;
  return genaiPrices.calcPrice(...args);
}

/** USD per million tokens of each kind. */
export interface Rates {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** A model's rates, at the base tier and (where the provider has one) for long-context requests. */
export interface ModelRates extends Rates {
  readonly longContext?: Rates;
}

/** Tokens of one kind each, as the usage unit counts them (`input` fresh, `output` with reasoning). */
export interface PricedTokens {
  readonly input: number;
  readonly output: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
}

export interface PriceTable {
  /** Where the prices come from, for people reading a figure (`genai-prices 0.1.8`, a file). */
  readonly source: string;
  /** The rates of a model at an instant; undefined when the table does not price it. */
  rates(provider: string | null, model: string, longContext: boolean, at: number): Rates | undefined;
}

/**
 * Prices from `@pydantic/genai-prices` (its bundled data set, maintained by Pydantic from the
 * providers' price pages; no network). Its `calcPrice` prices one request, with tiers decided by
 * that request's input; Strand prices sums of many requests, so the per-kind rates are read off
 * small probe requests (under every tier boundary) for the base tier and off a 1M-token probe for
 * the long-context tier, and applied per kind. Each (model, tier, day) is probed once.
 */
export function bundledPrices(): PriceTable {
  const cache = new Map<string, Rates | null>();
  return {
    source: 'genai-prices (bundled data)',
    rates(provider, model, longContext, at) {
      const day = new Date(Math.floor(at / 86_400_000) * 86_400_000);
      const key = `${provider ?? ''}\u0000${model}\u0000${longContext ? 1 : 0}\u0000${day.getTime()}`;
      let rates = cache.get(key);
      if (rates === undefined) {
        rates = probeRates(provider, model, longContext ? 1_000_000 : 1_000, day) ?? null;
        cache.set(key, rates);
      }
      return rates ?? undefined;
    },
  };
}

/** Per-kind rates read off requests of `size` input tokens (cache kinds are parts of input there). */
function probeRates(provider: string | null, model: string, size: number, at: Date): Rates | undefined {
  const price = (usage: Record<string, number>): number | undefined => {
    const options = { timestamp: at };
    // The provider's own id first (`anthropic`, `openai`, `google`); a harness's custom provider
    // name (Codex's `model_provider`, an OpenAI-compatible endpoint) falls back to the model alone.
    const result =
      (provider !== null ? calcPrice(usage, model, { ...options, providerId: provider }) : null) ??
      calcPrice(usage, model, options);
    return result?.total_price;
  };
  const input = price({ input_tokens: size });
  if (input === undefined) return undefined;
  const withOutput = price({ input_tokens: size, output_tokens: size });
  const cacheRead = price({ input_tokens: size, cache_read_tokens: size });
  const cacheWrite = price({ input_tokens: size, cache_write_tokens: size });
  const perMillion = (usd: number | undefined): number => ((usd ?? input) * 1_000_000) / size;
  return {
    input: perMillion(input),
    output: perMillion((withOutput ?? input) - input),
    cacheRead: perMillion(cacheRead),
    cacheWrite: perMillion(cacheWrite),
  };
}

/** The USD cost of `tokens` at `rates`. */
export function costOf(tokens: PricedTokens, rates: Rates): number {
  return (
    (tokens.input * rates.input +
      tokens.output * rates.output +
      tokens.cacheRead * rates.cacheRead +
      tokens.cacheCreation * rates.cacheWrite) /
    1_000_000
  );
}

/**
 * A pricing file (`strand usage --pricing`, `strand serve --pricing`): USD per million tokens per
 * model name, overriding the bundled table for those models —
 * `{"models": {"my-model": {"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75,
 * "longContext": {…the same four…}}}}`. Undefined with the reason when the text is not one.
 */
export function parsePricingFile(text: string): { models: Record<string, ModelRates> } | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  if (typeof raw !== 'object' || raw === null || typeof (raw as { models?: unknown }).models !== 'object')
    return 'expected {"models": {"<model>": {"input", "output", "cacheRead", "cacheWrite"}}}';
  const models: Record<string, ModelRates> = {};
  for (const [name, value] of Object.entries((raw as { models: Record<string, unknown> }).models)) {
    const rates = readRates(value);
    if (rates === undefined)
      return `model ${JSON.stringify(name)}: needs input, output, cacheRead, cacheWrite (USD per million tokens, ≥ 0)`;
    const long = (value as { longContext?: unknown }).longContext;
    if (long === undefined) models[name] = rates;
    else {
      const longRates = readRates(long);
      if (longRates === undefined)
        return `model ${JSON.stringify(name)}: longContext needs the same four rates`;
      models[name] = { ...rates, longContext: longRates };
    }
  }
  return { models };
}

function readRates(value: unknown): Rates | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const ok = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0;
  if (!ok(v.input) || !ok(v.output) || !ok(v.cacheRead) || !ok(v.cacheWrite)) return undefined;
  return { input: v.input, output: v.output, cacheRead: v.cacheRead, cacheWrite: v.cacheWrite };
}

/** `table` with the models a pricing file names priced by the file instead. */
export function withOverrides(
  table: PriceTable,
  // As the wire's params parse them: an absent tier may be there as undefined.
  models: Readonly<Record<string, Rates & { readonly longContext?: Rates | undefined }>>,
  file: string,
): PriceTable {
  return {
    source: `${file}, then ${table.source}`,
    rates(provider, model, longContext, at) {
      const own = Object.hasOwn(models, model) ? models[model] : undefined;
      if (own !== undefined) return longContext ? (own.longContext ?? own) : own;
      return table.rates(provider, model, longContext, at);
    },
  };
}
