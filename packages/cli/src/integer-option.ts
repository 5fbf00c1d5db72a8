import { InvalidArgumentError, Option } from 'commander';

/**
 * An integer option checked when it is parsed, so a value out of range is a usage error (one
 * line, exit 2) naming the bounds, not the host's validation report of a request already sent.
 * The bounds are the host's (`session.list` limit 1…100000, `session.search` 1…100, a follow
 * window 0…10000): the CLI refuses exactly what the host would.
 */
export function integerOption(
  flags: string,
  description: string,
  bounds: { readonly min: number; readonly max: number },
  defaultValue?: number,
): Option {
  const option = new Option(flags, description).argParser((text: string) => {
    const value = /^[+-]?\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < bounds.min || value > bounds.max)
      throw new InvalidArgumentError(`expected an integer from ${bounds.min} to ${bounds.max}.`);
    return value;
  });
  return defaultValue === undefined ? option : option.default(defaultValue);
}
