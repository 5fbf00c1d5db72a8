/**
 * npm run bench:query
 *
 * Observations and search on the standard workload: cold `observeSession(…, 'all')` of 100k events
 * vs the persistence floor (same run), the follow opening read (last 100 events + all projections
 * with a cache row at 99%) vs the whole cold observation, live observation at 1k vs 100k events
 * with a 100-event window, `listSessions` over 10,000 sessions, and search. Last line: one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { persistenceWriter } from '@strand/persistence';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { composeBaseStack, openFileStores, type BaseStack } from '@strand/stack';
import { Session, SessionId, SessionLogOffset, newSessionHeader } from '@strand/session';
import { workloadTurns } from '@strand/workload';
import { line, median, medianMs, round, timeIt } from './bench-util.js';
import { jsonlFloor } from './persistence-floor.js';
import { writeSmallSessions } from './small-sessions.js';

const root = mkdtempSync(path.join(tmpdir(), 'strand-bench-query-'));
try {
  const registry = new ProjectionRegistry();
  for (const unit of BUILT_IN_UNITS) registry.register(unit);
  // The data folder's stores (JSONL, cache and search files); capacity 0: every cold observation
  // decodes (no LRU reuse between timed runs).
  const openStack = async (): Promise<BaseStack> => {
    const stack = composeBaseStack({
      stores: await openFileStores({ dataDir: root, backend: 'jsonl', registry }),
      registry,
      preparations: { capacity: 0 },
    });
    // No checkpoint writes behind the timed reads: the one row this bench reads it puts itself.
    stack.cacheWrites.dispose();
    return stack;
  };
  const first = await openStack();

  const write = async (into: BaseStack, id: string, events: number, attach = false): Promise<Session> => {
    const sid = SessionId(id);
    const header = newSessionHeader({ id: sid, createdAt: 1_700_000_000_000 });
    const { incarnation } = await into.persistence.create({ header });
    const session = new Session({ header, incarnation, writer: persistenceWriter(into.persistence, sid) });
    if (attach) into.store.attach(session);
    for (const turn of workloadTurns(0, events)) await session.append(turn);
    return session;
  };

  console.log('writing the 100k-event session …');
  // Keep only the identity: holding 100k live events would tax every GC of the timed reads.
  const big = await write(first, 'big', 100_000).then((session) => ({
    id: session.id,
    header: session.header,
    incarnation: session.incarnation,
    length: session.events.length,
  }));
  const coldObserveMs100k = await medianMs(3, async () =>
    (await first.query.observeSession(big.id, { projectionMode: 'all' })).dispose(),
  );
  const floorMs = await medianMs(3, () => jsonlFloor(path.join(root, 'sessions', 'big.zst')));
  line('cold observeSession(all), 100k events', `${round(coldObserveMs100k)} ms`);
  line('persistence floor (read + decompress + JSON.parse)', `${round(floorMs)} ms`);
  line('observe / floor (throughput ratio)', round(floorMs / coldObserveMs100k, 3));

  // A cache row at 99% of the log, as the write policy leaves at a turn end.
  const cut = Math.floor((big.length * 0.99) / 21) * 21;
  const stored = await first.persistence.inspect(big.id);
  first.cache.put(
    { header: big.header, incarnation: big.incarnation! },
    SessionLogOffset(0),
    registry.foldAll(big.header, stored.events.slice(0, cut)).rows,
  );
  // Reopened: a fresh persistence and query, reading the row back from the cache file.
  await first.close();
  const stack = await openStack();
  const { persistence: fresh, query, store } = stack;
  const tailMs = await medianMs(5, async () =>
    (await query.observeSession(big.id, { projectionMode: 'all', window: { last: 100 } })).dispose(),
  );
  const wholeMs = await medianMs(3, async () =>
    (
      await query.observeSession(big.id, {
        projectionMode: 'all',
        window: { last: 100 },
        requirePrepared: true,
      })
    ).dispose(),
  );
  line('follow opening read: last 100 events + all projections (row at 99%)', `${round(tailMs, 2)} ms`);
  line('the same from the whole cold log', `${round(wholeMs)} ms → speedup ${round(wholeMs / tailMs, 1)}×`);

  const live1k = await write(stack, 'live-1k', 1_000, true);
  const live100k = new Session({
    header: big.header,
    events: (await fresh.inspect(big.id)).events,
    incarnation: big.incarnation!,
  });
  store.attach(live100k);
  const liveUs = async (session: Session): Promise<number> => {
    for (let i = 0; i < 200; i++)
      (await query.observeSession(session.id, { projectionMode: 'all', window: { last: 100 } })).dispose();
    const times: number[] = [];
    for (let i = 0; i < 2000; i++)
      times.push(
        (
          await timeIt(async () =>
            (
              await query.observeSession(session.id, { projectionMode: 'all', window: { last: 100 } })
            ).dispose(),
          )
        ).ms * 1000,
      );
    return median(times);
  };
  const liveObserveUs1k = await liveUs(live1k);
  const liveObserveUs100k = await liveUs(live100k);
  line('live observeSession(all, last 100), 1k events', `${round(liveObserveUs1k, 1)} µs`);
  line('live observeSession(all, last 100), 100k events', `${round(liveObserveUs100k, 1)} µs`);
  store.detach(live100k);
  store.detach(live1k);

  console.log('writing 10,000 small sessions …');
  await writeSmallSessions(fresh);
  const listSessions10kMs = await medianMs(3, () => query.listSessions());
  line('listSessions over 10,000+ sessions', `${round(listSessions10kMs)} ms`);

  let search = {
    indexEventsPerSec: NaN,
    searchP50Ms: NaN,
    searchP99Ms: NaN,
    searchTypeAheadP95Ms: NaN,
    searchFilteredTypeAheadP95Ms: NaN,
  };
  try {
    const { benchSearch } = await import('./query-search.js');
    search = await benchSearch();
  } catch (error) {
    console.log(`  search benchmark unavailable: ${String(error)}`);
  }
  await stack.close();
  console.log(
    JSON.stringify({
      coldObserveMs100k: round(coldObserveMs100k),
      coldObserveOverFloor: round(floorMs / coldObserveMs100k, 3),
      tailObserveSpeedup: round(wholeMs / tailMs, 1),
      liveObserveUs1k: round(liveObserveUs1k, 1),
      liveObserveUs100k: round(liveObserveUs100k, 1),
      listSessions10kMs: round(listSessions10kMs),
      ...search,
    }),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
