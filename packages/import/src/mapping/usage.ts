/**
 * One model response's tokens as the importers write them, in the log's one meaning
 * (`usageSchema` in `@strand/session`): `input` is fresh, uncached input — each harness's own
 * figure with the cache parts taken out; `output` includes `reasoning`. Each mapper turns its
 * harness's fields into this once (`claude-stream.ts`, `codex-records.ts`, `map-gemini.ts`).
 */
export interface Usage {
  readonly input: number;
  readonly output: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
  readonly reasoning: number;
}

export const USAGE_KINDS = ['input', 'output', 'cacheCreation', 'cacheRead', 'reasoning'] as const;

export const NO_USAGE: Usage = Object.freeze({
  input: 0,
  output: 0,
  cacheCreation: 0,
  cacheRead: 0,
  reasoning: 0,
});

/** A usage from the kinds a harness gave; the others are 0. */
export const usage = (kinds: Partial<Usage>): Usage => ({ ...NO_USAGE, ...kinds });

export const isNoUsage = (u: Usage): boolean => USAGE_KINDS.every((kind) => u[kind] === 0);

export function sumUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return mapKinds((kind) => a[kind] + b[kind]);
}

/** Per kind, what `now` adds to `before`; undefined when a kind went down (a running total restarted). */
export function growthSince(now: Usage, before: Usage): Usage | undefined {
  if (USAGE_KINDS.some((kind) => now[kind] < before[kind])) return undefined;
  return mapKinds((kind) => now[kind] - before[kind]);
}

/** Per kind, the larger of the two. */
export const maxUsage = (a: Usage, b: Usage): Usage => mapKinds((kind) => Math.max(a[kind], b[kind]));

/** Per kind, what `now` adds beyond `before`, never below 0. */
export const excessOver = (now: Usage, before: Usage): Usage =>
  mapKinds((kind) => Math.max(0, now[kind] - before[kind]));

/** The record the log holds: the kinds that are not 0 besides input and output (logs stay small). */
export function logUsage(u: Usage): Record<string, number> {
  const record: Record<string, number> = { input: u.input, output: u.output };
  if (u.cacheCreation > 0) record.cacheCreation = u.cacheCreation;
  if (u.cacheRead > 0) record.cacheRead = u.cacheRead;
  if (u.reasoning > 0) record.reasoning = u.reasoning;
  return record;
}

function mapKinds(f: (kind: (typeof USAGE_KINDS)[number]) => number): Usage {
  return {
    input: f('input'),
    output: f('output'),
    cacheCreation: f('cacheCreation'),
    cacheRead: f('cacheRead'),
    reasoning: f('reasoning'),
  };
}
