/**
 * The measured side of bench/cache-mirror-open.ts, in its own process so its RSS is the cache's:
 * argv = module (a `postgres-cache.ts`), url, sessions. Prints one JSON line.
 */
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import type { PostgresProjectionCache } from '@strand/postgres';
import { newSessionHeader, SessionId, SessionLogOffset } from '@strand/session';

const [module, url, sessionsText] = process.argv.slice(2) as [string, string, string];
const sessions = Number(sessionsText);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

const { openPostgresProjectionCache } = (await import(module)) as {
  openPostgresProjectionCache: (options: {
    url: string;
    registry: ProjectionRegistry;
  }) => Promise<PostgresProjectionCache>;
};
const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
gc();
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const cache = await openPostgresProjectionCache({ url, registry });
const openMs = performance.now() - started;
gc();
const afterOpen = process.memoryUsage();
const heldAfterOpen = cache.mirroredSessions;
// Two list pages of 200 sessions spread over the corpus, each readied and read: the first opens a
// connection (after the bounded mirror's open), the second is what a page costs afterwards.
async function readPage(offset: number): Promise<{ ms: number; hits: number }> {
  const page = Array.from(
    { length: 200 },
    (_, i) => `s${String((Math.floor((i * sessions) / 200) + offset) % sessions).padStart(7, '0')}`,
  );
  const started = performance.now();
  await cache.prefetch(page);
  let hits = 0;
  for (const id of page) {
    const header = newSessionHeader({ id: SessionId(id), createdAt: 1_700_000_000_000 });
    if (
      cache.cachedSnapshot({ header, incarnation: 'inc-1' }, SessionLogOffset(0), ['title', 'listMetadata'])
    )
      hits++;
  }
  return { ms: performance.now() - started, hits };
}
const first = await readPage(0);
const second = await readPage(1);
const pageMs = first.ms;
const hits = first.hits + second.hits;
gc();
const afterPage = process.memoryUsage();
await cache.closeAsync();
console.log(
  JSON.stringify({
    openMs: Math.round(openMs),
    rssGrowthAtOpenMB: mb(afterOpen.rss - rssBefore),
    rssAfterOpenMB: mb(afterOpen.rss),
    heapAfterOpenMB: mb(afterOpen.heapUsed),
    mirroredSessionsAfterOpen: heldAfterOpen,
    mirroredSessionsAfterPage: cache.mirroredSessions,
    firstPageMs: Math.round(pageMs),
    secondPageMs: Math.round(second.ms),
    pageHits: hits,
    rssAfterPageMB: mb(afterPage.rss),
  }),
);
