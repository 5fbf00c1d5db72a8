import { defined } from '@strand/session';
import type { FoldOrigin, ProjectionUnit } from '../../types.js';
import { isCount, isRecord } from '../read.js';

/**
 * Tokens of model responses, in the log's one meaning (`usageSchema` in `@strand/session`):
 * `input` is fresh, uncached input; `cacheCreation` and `cacheRead` are apart; `output` includes
 * `reasoning`, which is a part of it, never added to it.
 */
export interface UsageTokens {
  readonly input: number;
  readonly output: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
  readonly reasoning: number;
}

/** The model a response came from, as the `request/header` before it named it; null when none did. */
export interface UsageModel {
  readonly provider: string | null;
  readonly model: string | null;
}

/**
 * A model's tokens. `longContext` entries hold the responses whose prompt (fresh input and cache)
 * passed `LONG_CONTEXT_TOKENS`: several providers price those at a higher tier, and a sum of
 * responses cannot tell afterwards which ones did.
 */
export type ModelUsage = UsageModel &
  UsageTokens & {
    readonly longContext: boolean;
    /**
     * USD the harness itself reported for this model (`session/cost`, the growth of its running
     * total), where it reported any: kept beside the cost Strand prices from the tokens.
     */
    readonly reportedUsd?: number;
  };

/** The prompt size above which a response is kept apart as long-context (the common tier boundary). */
export const LONG_CONTEXT_TOKENS = 200_000;

/** One model's tokens in one UTC hour (`hour`: the hour's first millisecond since the epoch). */
export type HourUsage = ModelUsage & { readonly hour: number };

export interface UsageFold {
  /** The first seq that is the session's own (its inherited event count). */
  readonly ownFrom: number;
  /** The route of the responses that follow: the last `request/header`, inherited ones included. */
  readonly route: UsageModel;
  /** Everything a seeded session inherited from its parent, summed (the parent counts it as its own). */
  readonly inherited: UsageTokens;
  /** The session's own tokens per model, in the order the models first answered. */
  readonly byModel: readonly ModelUsage[];
  /**
   * The session's own tokens per UTC hour and model, hours ascending: days in any zone sum from
   * these (to the hour). Kept in two parts so a response costs a copy of its own hour's few
   * entries, not of the whole history: the hours before the latest, and the latest hour's.
   */
  readonly closedHours: readonly HourUsage[];
  readonly openHour: readonly HourUsage[];
  /**
   * The harness's running cost totals (`session/cost`) as last reported, per model (`''`: a total
   * it gave no split of), inherited ones included: each report adds only its growth over these.
   */
  readonly reported: Readonly<Record<string, number>>;
}

/** The fold, or `null` once a usage record could not be read (a sum that skipped it would be wrong). */
export type UsageState = UsageFold | null;

export interface UsageView {
  /** The session's own tokens, all models: what corpus totals add up (each response counted once). */
  readonly own: UsageTokens;
  /** What a seeded session inherited (zero for any other): shown beside `own`, never added to totals. */
  readonly inherited: UsageTokens;
  readonly byModel: readonly ModelUsage[];
  /** The own tokens per UTC hour and model: what usage over days, weeks and months sums. */
  readonly byHour: readonly HourUsage[];
}

declare module '../../types.js' {
  interface ProjectionStateMap {
    usage: UsageState;
  }
  interface ProjectionViewMap {
    usage: UsageView | null;
  }
}

export const USAGE_READS: readonly string[] = ['assistant/message', 'request/header', 'session/cost'];

const HOUR_MS = 3_600_000;
const KINDS = ['input', 'output', 'cacheCreation', 'cacheRead', 'reasoning'] as const;
const NO_TOKENS: UsageTokens = Object.freeze({
  input: 0,
  output: 0,
  cacheCreation: 0,
  cacheRead: 0,
  reasoning: 0,
});
const NO_MODEL: UsageModel = Object.freeze({ provider: null, model: null });

/**
 * Token use of a session, per model and per UTC hour, counting each `assistant/message` usage
 * record once. A seeded session's inherited prefix is kept apart (`inherited`): its parent already
 * counts it, so corpus totals add only `own`.
 */
export const usageUnit: ProjectionUnit<UsageState, UsageView | null, 'usage'> = {
  key: 'usage',
  stateVersion: 4,
  dataReads: USAGE_READS,
  init: (_header, origin: FoldOrigin) => ({
    ownFrom: origin.inheritedEventCount,
    route: NO_MODEL,
    inherited: NO_TOKENS,
    byModel: [],
    closedHours: [],
    openHour: [],
    reported: {},
  }),
  apply(state, event) {
    if (state === null) return state;
    if (event.type === 'request/header') return withRoute(state, event.data);
    if (event.type === 'session/cost') return withReportedCost(state, event.data, event.seq, event.time);
    if (event.type !== 'assistant/message') return state;
    const data = event.data;
    if (!isRecord(data) || data.usage === undefined) return state;
    const tokens = readTokens(data.usage);
    if (tokens === undefined) return null;
    if (KINDS.every((kind) => tokens[kind] === 0)) return state;
    if (event.seq < state.ownFrom) return { ...state, inherited: add(state.inherited, tokens) };
    const hour = Math.floor(event.time / HOUR_MS) * HOUR_MS;
    const longContext = tokens.input + tokens.cacheCreation + tokens.cacheRead > LONG_CONTEXT_TOKENS;
    const key: EntryKey = { ...state.route, longContext };
    return {
      ...state,
      byModel: addToModel(state.byModel, key, tokens),
      ...addToHours(state, hour, key, tokens),
    };
  },
  view: (state) =>
    state === null
      ? null
      : {
          own: state.byModel.reduce<UsageTokens>(add, NO_TOKENS),
          inherited: state.inherited,
          byModel: state.byModel,
          byHour: state.openHour.length === 0 ? state.closedHours : [...state.closedHours, ...state.openHour],
        },
};

function withRoute(state: UsageFold, data: unknown): UsageState {
  if (!isRecord(data) || typeof data.provider !== 'string' || typeof data.model !== 'string') return state;
  if (state.route.provider === data.provider && state.route.model === data.model) return state;
  return { ...state, route: { provider: data.provider, model: data.model } };
}

/**
 * A harness's cost report: cumulative, so each model's growth since the last report is what this
 * response window cost, added to the report's hour (a total that fell — the harness restarted its
 * count — counts from zero). An inherited report only sets the totals the child's grow from.
 */
function withReportedCost(state: UsageFold, data: unknown, seq: number, time: number): UsageState {
  if (!isRecord(data) || !isUsd(data.usd)) return state;
  const split = isRecord(data.byModel) ? Object.entries(data.byModel) : [];
  // A total without a split is tracked as one (`''`) and counts under the route's model then.
  const totals: [string, unknown][] = split.length > 0 ? split : [['', data.usd]];
  const reported: Record<string, number> = { ...state.reported };
  let next = state;
  const hour = Math.floor(time / HOUR_MS) * HOUR_MS;
  for (const [model, value] of totals) {
    if (!isUsd(value)) continue;
    const before = state.reported[model] ?? 0;
    reported[model] = value;
    const growth = value >= before ? value - before : value;
    if (seq < state.ownFrom || growth === 0) continue;
    const key: EntryKey =
      model === '' || model === state.route.model
        ? { ...state.route, longContext: false }
        : { provider: null, model, longContext: false };
    next = {
      ...next,
      byModel: addToModel(next.byModel, key, NO_TOKENS, growth),
      ...addToHours(next, hour, key, NO_TOKENS, growth),
    };
  }
  return { ...next, reported };
}

const isUsd = (value: unknown): value is number =>
  typeof value === 'number' && value >= 0 && value <= Number.MAX_SAFE_INTEGER;

/** A usage record's tokens: `{input, output}` required (logs before the kinds hold only these). */
function readTokens(usage: unknown): UsageTokens | undefined {
  if (!isRecord(usage) || !isCount(usage.input) || !isCount(usage.output)) return undefined;
  const tokens: Record<(typeof KINDS)[number], number> = { ...NO_TOKENS };
  for (const kind of KINDS) {
    const value = usage[kind];
    if (value === undefined) continue;
    if (!isCount(value)) return undefined;
    tokens[kind] = value;
  }
  return tokens;
}

function add(a: UsageTokens, b: UsageTokens): UsageTokens {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheCreation: a.cacheCreation + b.cacheCreation,
    cacheRead: a.cacheRead + b.cacheRead,
    reasoning: a.reasoning + b.reasoning,
  };
}

/** What an entry is kept apart by, besides its hour. */
type EntryKey = UsageModel & { readonly longContext: boolean };

const sameModel = (a: UsageModel, b: UsageModel): boolean => a.provider === b.provider && a.model === b.model;
const sameEntry = (a: EntryKey, b: EntryKey): boolean => sameModel(a, b) && a.longContext === b.longContext;

/** `entries` with `tokens` added to the route's entry, or a new entry for the route at the end. */
function addToModel(
  entries: readonly ModelUsage[],
  key: EntryKey,
  tokens: UsageTokens,
  usd?: number,
): ModelUsage[] {
  const at = entries.findIndex((entry) => sameEntry(entry, key));
  if (at === -1) return [...entries, { ...key, ...tokens, ...withUsd(undefined, usd) }];
  const next = [...entries];
  next[at] = { ...entries[at]!, ...add(entries[at]!, tokens), ...withUsd(entries[at]!.reportedUsd, usd) };
  return next;
}

/** The `reportedUsd` field after adding `usd` (none when neither the entry nor the addition has one). */
function withUsd(had: number | undefined, usd: number | undefined): { reportedUsd?: number } {
  if (usd === undefined) return defined({ reportedUsd: had });
  return { reportedUsd: (had ?? 0) + usd };
}

/**
 * Adds to the latest hour's entries (a later hour closes them first); a response logged out of
 * order, before the latest hour, goes into the closed hours.
 */
function addToHours(
  state: UsageFold,
  hour: number,
  key: EntryKey,
  tokens: UsageTokens,
  usd?: number,
): Pick<UsageFold, 'closedHours' | 'openHour'> {
  const open = state.openHour[0]?.hour;
  if (open === undefined || hour === open)
    return { closedHours: state.closedHours, openHour: addToHour(state.openHour, hour, key, tokens, usd) };
  if (hour > open)
    return {
      closedHours: [...state.closedHours, ...state.openHour],
      openHour: [{ hour, ...key, ...tokens, ...withUsd(undefined, usd) }],
    };
  return { closedHours: addToHour(state.closedHours, hour, key, tokens, usd), openHour: state.openHour };
}

/**
 * Adds to the hour's entry for the route. Responses mostly come in time order, so the search runs
 * from the end and stops at an earlier hour; a response logged out of order still finds its place.
 */
function addToHour(
  entries: readonly HourUsage[],
  hour: number,
  key: EntryKey,
  tokens: UsageTokens,
  usd?: number,
): HourUsage[] {
  let at = entries.length;
  while (at > 0 && entries[at - 1]!.hour > hour) at--;
  for (let i = at - 1; i >= 0 && entries[i]!.hour === hour; i--) {
    if (sameEntry(entries[i]!, key)) {
      const next = [...entries];
      next[i] = { ...entries[i]!, ...add(entries[i]!, tokens), ...withUsd(entries[i]!.reportedUsd, usd) };
      return next;
    }
  }
  const entry: HourUsage = { hour, ...key, ...tokens, ...withUsd(undefined, usd) };
  return [...entries.slice(0, at), entry, ...entries.slice(at)];
}
