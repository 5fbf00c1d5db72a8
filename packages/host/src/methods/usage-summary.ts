import type { UsageGroup } from '@strand/protocol';
import type { UsageView } from '@strand/projection';
import { sessionHarness, type SessionId, defined } from '@strand/session';
import type { UsageIndexQuery, UsageIndexSession } from '@strand/projection-cache';
import type { CorpusRow } from '@strand/query';
import { HostError } from '../errors.js';
import type { HostServices } from '../services.js';
import { isTimeZone, parseBound } from '../usage/periods.js';
import { bundledPrices, withOverrides, type PriceTable, type Rates } from '../usage/pricing.js';
import { summarizeUsage, type SessionUsage, type UsageSummary } from '../usage/summarize.js';

export interface UsageSummaryParams {
  readonly by?: UsageGroup | undefined;
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  readonly timeZone?: string | undefined;
  readonly harness?: string | undefined;
  readonly cwd?: string | undefined;
  readonly ids?: readonly string[] | undefined;
  readonly prices?:
    | Readonly<Record<string, Rates & { readonly longContext?: Rates | undefined }>>
    | undefined;
}

/** The bundled table, built once per process (its probes are cached per model and day). */
let bundled: PriceTable | undefined;
export const defaultPrices = (): PriceTable => (bundled ??= bundledPrices());

/**
 * `usage.summary`: every session's own tokens from its `usage` projection — the live fold for an
 * attached session; for a cold one the list index's usage hours (one query over the corpus, with
 * the request's filters and bounds), else the projection cache's row; and one observation (which
 * writes both back) only where none holds it — grouped and priced here. `bodyReads` counts those
 * observations: a warm corpus answers with none.
 */
export async function usageSummary(
  services: HostServices,
  params: UsageSummaryParams,
  signal: AbortSignal,
): Promise<UsageSummary & { timeZone: string; pricing: string; bodyReads: number }> {
  const timeZone = params.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!isTimeZone(timeZone)) throw invalid(`unknown time zone ${JSON.stringify(timeZone)}`);
  const since = bound(params.since, 'since', timeZone);
  const until = bound(params.until, 'until', timeZone);
  let prices = services.prices ?? defaultPrices();
  if (params.prices !== undefined) prices = withOverrides(prices, params.prices, 'the request');

  const corpus = (await corpusOf(services, params.ids, signal)).filter(
    (row) =>
      (params.harness === undefined || sessionHarness(row.header) === params.harness) &&
      (params.cwd === undefined || row.header.cwd === params.cwd),
  );
  const { cwd, harness, ids } = params;
  const indexed = await indexedUsage(services, defined({ cwd, harness, ids, since, until }));
  const sessions: SessionUsage[] = [];
  const rest: CorpusRow[] = [];
  for (const row of corpus) {
    const hit = row.live ? undefined : indexed.get(row.header.id);
    if (hit === undefined || hit.incarnation !== row.incarnation) rest.push(row);
    else
      sessions.push({
        id: hit.id,
        title: hit.title,
        cwd: row.header.cwd ?? null,
        harness: sessionHarness(row.header),
        byHour: hit.byHour,
      });
  }
  const cached = await cachedValues(services, rest, params.by === 'session');
  let bodyReads = 0;
  for (const row of rest) {
    const harness = sessionHarness(row.header);
    let values = liveValues(services, row) ?? cached.get(row.header.id);
    if (values === undefined) {
      bodyReads++;
      values = await observedValues(services, row.header.id, signal);
    }
    // The registry's own unit computed it (live, or a cache row of the same stateVersion): typed.
    const usage = values?.usage as UsageView | null | undefined;
    if (usage === undefined || usage === null) continue;
    sessions.push({
      id: row.header.id,
      title: typeof values?.title === 'string' ? values.title : null,
      cwd: row.header.cwd ?? null,
      harness,
      byHour: usage.byHour,
    });
  }
  const summary = summarizeUsage(
    sessions,
    {
      by: params.by ?? 'day',
      timeZone,
      ...defined({ since, until }),
    },
    prices,
  );
  return { ...summary, timeZone, pricing: prices.source, bodyReads };
}

type Values = Readonly<Record<string, unknown>>;

/**
 * The sessions to sum: with `ids` and a list index, those sessions only — attached ones from the
 * store, cold ones from the index by id — so pricing a page of the list costs that page, not a
 * listing of every header in the corpus (the web asks again for each row a `list.changed` re-read).
 * An asked id found in neither (not indexed yet) falls back to the whole listing, which holds
 * every stored session: an answer may be slower, never short.
 */
async function corpusOf(
  services: HostServices,
  ids: readonly string[] | undefined,
  signal: AbortSignal,
): Promise<CorpusRow[]> {
  const index = services.cache?.listIndex;
  if (ids !== undefined && index !== undefined) {
    const rows = new Map<string, CorpusRow>();
    const cold: string[] = [];
    for (const id of new Set(ids)) {
      const session = services.store.get(id as SessionId);
      if (session === undefined) cold.push(id);
      else rows.set(id, corpusRowOf(session.header, true, session.incarnation));
    }
    try {
      for (const row of await index.rows(cold))
        rows.set(row.header.id, corpusRowOf(row.header, false, row.incarnation));
    } catch (error) {
      services.logger?.warn('reading rows from the list index failed; listing the corpus instead', { error });
    }
    if (rows.size === new Set(ids).size) return [...rows.values()];
  }
  const only = ids === undefined ? undefined : new Set(ids);
  const listed = await services.query.listSessions({ signal });
  return only === undefined ? listed : listed.filter((row) => only.has(row.header.id));
}

function corpusRowOf(header: CorpusRow['header'], live: boolean, incarnation: string | undefined): CorpusRow {
  // Both are stored: the index holds stored sessions, and a session is attached only once created.
  return { header, live, persisted: true, incarnation, revision: undefined, storedBytes: undefined };
}

/**
 * The usage the list index keeps for the request's sessions, by id — one query, whatever the
 * corpus's size; empty when the cache keeps no index or the query fails (the rows are then read
 * the slower ways, never summed wrong).
 */
async function indexedUsage(
  services: HostServices,
  query: UsageIndexQuery,
): Promise<Map<string, UsageIndexSession>> {
  const found = new Map<string, UsageIndexSession>();
  const index = services.cache?.listIndex;
  if (index === undefined) return found;
  try {
    for (const session of await index.usage(query)) found.set(session.id, session);
  } catch (error) {
    services.logger?.warn('reading usage from the list index failed; reading the cache rows instead', {
      error,
    });
  }
  return found;
}

function liveValues(services: HostServices, row: CorpusRow): Values | undefined {
  if (!row.live) return undefined;
  const session = services.store.get(row.header.id);
  if (session === undefined) return undefined;
  try {
    return services.registry.snapshot(session, ['usage', 'title']).values;
  } catch {
    return undefined;
  }
}

/** Sessions whose cache rows are loaded and read at a time: well inside the PostgreSQL mirror's bound. */
const CACHE_READ_CHUNK = 1_000;

/**
 * The cache's usage rows (and titles) of the corpus's cold sessions, read at once — one query
 * for 10,000 sessions instead of one each (a store holding only some sessions in memory loads
 * them a chunk at a time, each read right after its load). Only unseeded sessions, whose cache
 * identity the header proves; a session whose usage row misses is absent (it is observed instead).
 */
async function cachedValues(
  services: HostServices,
  corpus: readonly CorpusRow[],
  withTitle: boolean,
): Promise<Map<string, Values>> {
  const found = new Map<string, Values>();
  const cache = services.cache;
  if (cache === undefined) return found;
  const subjects = corpus.flatMap((row) =>
    row.incarnation === undefined || row.header.isSeeded
      ? []
      : [{ header: row.header, incarnation: row.incarnation }],
  );
  for (let at = 0; at < subjects.length; at += CACHE_READ_CHUNK) {
    const chunk = subjects.slice(at, at + CACHE_READ_CHUNK);
    await cache.prefetch(chunk.map((subject) => subject.header.id));
    const usage = cache.cachedValues('usage', chunk);
    // Apart from usage: a title row that is missing must not cost the usage row.
    const titles = withTitle ? cache.cachedValues('title', chunk) : undefined;
    for (const [id, value] of usage)
      found.set(id, titles?.has(id) === true ? { usage: value, title: titles.get(id) } : { usage: value });
  }
  return found;
}

async function observedValues(
  services: HostServices,
  id: SessionId,
  signal: AbortSignal,
): Promise<Values | undefined> {
  try {
    const observation = await services.query.observeSession(id, {
      projectionMode: 'all',
      window: { last: 0 },
      fillCache: true,
      retainPrepared: false,
      signal,
    });
    try {
      return observation.projections?.values;
    } finally {
      observation.dispose();
    }
  } catch {
    // An unreadable log is left out of the sums (`strand doctor` reports it), never a failed summary.
    return undefined;
  }
}

function bound(text: string | undefined, edge: 'since' | 'until', zone: string): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseBound(text, edge, zone);
  if (ms === undefined)
    throw invalid(`--${edge} ${JSON.stringify(text)} is neither YYYY-MM-DD nor an ISO time with a zone`);
  return ms;
}

const invalid = (message: string): HostError => new HostError('RPC_INVALID_PARAMS', message);
