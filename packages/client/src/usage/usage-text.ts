import { isRecord } from '@strand/session';

/** The `usage` projection's token kinds, as the host's unit counts them. */
export interface UsageTokensView {
  readonly input: number;
  readonly output: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
  readonly reasoning: number;
}

export interface UsageModelView extends UsageTokensView {
  readonly provider: string | null;
  readonly model: string | null;
  /** Responses whose prompt passed the long-context boundary (priced at a higher tier by some). */
  readonly longContext: boolean;
}

/** The `usage` projection's value: the session's own tokens, what it inherited, and per model. */
export interface UsageValueView {
  readonly own: UsageTokensView;
  readonly inherited: UsageTokensView;
  readonly byModel: readonly UsageModelView[];
}

const KINDS = ['input', 'output', 'cacheCreation', 'cacheRead', 'reasoning'] as const;
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isTokens = (v: unknown): v is UsageTokensView => isRecord(v) && KINDS.every((k) => isCount(v[k]));

/**
 * The `usage` value as it came off the wire, checked; undefined for any other shape (an older
 * host's `{input, output}`, a newer one's) — the reader then shows it generically, never wrongly.
 */
export function readUsageValue(value: unknown): UsageValueView | undefined {
  if (!isRecord(value) || !isTokens(value.own) || !isTokens(value.inherited) || !Array.isArray(value.byModel))
    return undefined;
  for (const entry of value.byModel) if (!isTokens(entry)) return undefined;
  return value as unknown as UsageValueView;
}

/**
 * The tokens as a person reads them: `12,400 in · 3,100 out`, then the cache parts that are not
 * zero (`· 1,200,000 cache read · 40,000 cache write`). Input is fresh input only, so the cache
 * parts are never inside it. `locale` groups the digits (the runtime's own when not given).
 */
export function usageLine(tokens: UsageTokensView, locale?: string): string {
  const n = (v: number) => v.toLocaleString(locale);
  const parts = [`${n(tokens.input)} in`, `${n(tokens.output)} out`];
  if (tokens.cacheRead > 0) parts.push(`${n(tokens.cacheRead)} cache read`);
  if (tokens.cacheCreation > 0) parts.push(`${n(tokens.cacheCreation)} cache write`);
  return parts.join(' · ');
}

/** The named models that answered, most output first (responses no request header named are left out). */
export function modelNames(value: UsageValueView): string[] {
  const output = new Map<string, number>();
  for (const m of value.byModel)
    if (m.model !== null) output.set(m.model, (output.get(m.model) ?? 0) + m.output);
  return [...output].sort((a, b) => b[1] - a[1]).map(([model]) => model);
}
