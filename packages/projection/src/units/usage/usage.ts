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
    if (isZero(tokens)) return state;
    if (event.seq < state.ownFrom) return { ...state, inherited: add(state.inherited, tokens) };
    const hour = Math.floor(event.time / HOUR_MS) * HOUR_MS;
    const longContext = tokens.input + tokens.cacheCreation + tokens.cacheRead > LONG_CONTEXT_TOKENS;
    const key: EntryKey = { provider: state.route.provider, model: state.route.model, longContext };
    const hours = addToHours(state.closedHours, state.openHour, hour, key, tokens, undefined);
    return foldOf(state, addToModel(state.byModel, key, tokens, undefined), hours, state.reported);
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
  let byModel = state.byModel;
  let hours: Hours = state;
  const hour = Math.floor(time / HOUR_MS) * HOUR_MS;
  for (const [model, value] of totals) {
    if (!isUsd(value)) continue;
    const before = state.reported[model] ?? 0;
    reported[model] = value;
    const growth = value >= before ? value - before : value;
    if (seq < state.ownFrom || growth === 0) continue;
    const key: EntryKey =
      model === '' || model === state.route.model
        ? { provider: state.route.provider, model: state.route.model, longContext: false }
        : { provider: null, model, longContext: false };
    byModel = addToModel(byModel, key, NO_TOKENS, growth);
    hours = addToHours(hours.closedHours, hours.openHour, hour, key, NO_TOKENS, growth);
  }
  return foldOf(state, byModel, hours, reported);
}

const isUsd = (value: unknown): value is number =>
  typeof value === 'number' && value >= 0 && value <= Number.MAX_SAFE_INTEGER;

/**
 * `state` with new entries and totals. The fold, its entries and its tokens are built whole, field
 * by field in one order, never spread from objects of varying shapes nor passed through `defined`:
 * an import folds tens of thousands of responses, and the spreads were most of the fold's cost
 * (2,317 aider sessions: ~135 ms, the other units together ~30).
 */
function foldOf(
  state: UsageFold,
  byModel: readonly ModelUsage[],
  hours: Hours,
  reported: Readonly<Record<string, number>>,
): UsageFold {
  return {
    ownFrom: state.ownFrom,
    route: state.route,
    inherited: state.inherited,
    byModel,
    closedHours: hours.closedHours,
    openHour: hours.openHour,
    reported,
  };
}

/** A usage record's tokens: `{input, output}` required (logs before the kinds hold only these). */
function readTokens(usage: unknown): UsageTokens | undefined {
  if (!isRecord(usage) || !isCount(usage.input) || !isCount(usage.output)) return undefined;
  const cacheCreation = countOrZero(usage.cacheCreation);
  const cacheRead = countOrZero(usage.cacheRead);
  const reasoning = countOrZero(usage.reasoning);
  if (cacheCreation === undefined || cacheRead === undefined || reasoning === undefined) return undefined;
  return { input: usage.input, output: usage.output, cacheCreation, cacheRead, reasoning };
}

/** An optional kind: 0 when absent, undefined when present and not a count. */
const countOrZero = (value: unknown): number | undefined =>
  value === undefined ? 0 : isCount(value) ? value : undefined;

const isZero = (t: UsageTokens): boolean =>
  t.input === 0 && t.output === 0 && t.cacheCreation === 0 && t.cacheRead === 0 && t.reasoning === 0;

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

type Hours = Pick<UsageFold, 'closedHours' | 'openHour'>;

const sameModel = (a: UsageModel, b: UsageModel): boolean => a.provider === b.provider && a.model === b.model;
const sameEntry = (a: EntryKey, b: EntryKey): boolean => sameModel(a, b) && a.longContext === b.longContext;

/** The `reportedUsd` after adding `usd` to `had` (none when neither has one). */
const usdAfter = (had: number | undefined, usd: number | undefined): number | undefined =>
  usd === undefined ? had : (had ?? 0) + usd;

/** A model's entry: the key's fields, the tokens, and `reportedUsd` only when there is one. */
const modelEntry = (key: EntryKey, t: UsageTokens, reportedUsd: number | undefined): ModelUsage =>
  withFigures({ provider: key.provider, model: key.model, longContext: key.longContext }, t, reportedUsd);

/** An hour's entry: the hour first, then as `modelEntry`. */
const hourEntry = (hour: number, key: EntryKey, t: UsageTokens, reportedUsd: number | undefined): HourUsage =>
  withFigures(
    { hour, provider: key.provider, model: key.model, longContext: key.longContext },
    t,
    reportedUsd,
  );

/**
 * `head` — a fresh literal of the fields an entry is kept apart by — with the tokens and any
 * `reportedUsd` assigned after them, always in this order (every entry of a kind has one shape).
 */
function withFigures<Head extends object>(
  head: Head,
  t: UsageTokens,
  reportedUsd: number | undefined,
): Head & UsageTokens & { readonly reportedUsd?: number } {
  const entry = head as Head & { -readonly [K in keyof UsageTokens]: number } & { reportedUsd?: number };
  entry.input = t.input;
  entry.output = t.output;
  entry.cacheCreation = t.cacheCreation;
  entry.cacheRead = t.cacheRead;
  entry.reasoning = t.reasoning;
  if (reportedUsd !== undefined) entry.reportedUsd = reportedUsd;
  return entry;
}

/** `entries` with `tokens` added to the route's entry, or a new entry for the route at the end. */
function addToModel(
  entries: readonly ModelUsage[],
  key: EntryKey,
  tokens: UsageTokens,
  usd: number | undefined,
): ModelUsage[] {
  for (let at = 0; at < entries.length; at++) {
    const entry = entries[at]!;
    if (!sameEntry(entry, key)) continue;
    const next = entries.slice();
    next[at] = modelEntry(entry, add(entry, tokens), usdAfter(entry.reportedUsd, usd));
    return next;
  }
  const next = entries.slice();
  next.push(modelEntry(key, tokens, usd));
  return next;
}

/**
 * Adds to the latest hour's entries (a later hour closes them first); a response logged out of
 * order, before the latest hour, goes into the closed hours.
 */
function addToHours(
  closedHours: readonly HourUsage[],
  openHour: readonly HourUsage[],
  hour: number,
  key: EntryKey,
  tokens: UsageTokens,
  usd: number | undefined,
): Hours {
  const open = openHour[0]?.hour;
  if (open === undefined || hour === open)
    return { closedHours, openHour: addToHour(openHour, hour, key, tokens, usd) };
  if (hour > open)
    return { closedHours: closedHours.concat(openHour), openHour: [hourEntry(hour, key, tokens, usd)] };
  return { closedHours: addToHour(closedHours, hour, key, tokens, usd), openHour };
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
  usd: number | undefined,
): HourUsage[] {
  let at = entries.length;
  while (at > 0 && entries[at - 1]!.hour > hour) at--;
  for (let i = at - 1; i >= 0 && entries[i]!.hour === hour; i--) {
    const entry = entries[i]!;
    if (sameEntry(entry, key)) {
      const next = entries.slice();
      next[i] = hourEntry(hour, entry, add(entry, tokens), usdAfter(entry.reportedUsd, usd));
      return next;
    }
  }
  const next = entries.slice(0, at);
  next.push(hourEntry(hour, key, tokens, usd));
  for (let i = at; i < entries.length; i++) next.push(entries[i]!);
  return next;
}
