/**
 * npm run bench:postgres
 *
 * The PostgreSQL backend against the file backend, in the same run, on the standard workload
 * (packages/workload/README.md): durable one-turn append throughput, cold observation of a 100k-event session
 * (`observeSession(…, 'all')`, no cache rows, no LRU reuse), and cross-host follow lag — host A
 * appends, a follower connected to host B receives the frames (LISTEN/NOTIFY + readFrom + the
 * follow protocol), measured from each event's append time to its arrival at B's client.
 * Needs STRAND_TEST_PG_URL, or starts a throwaway local server (scripts/with-postgres.sh).
 * Last line: one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  SessionPreparations,
  openJsonlPersistence,
  persistenceWriter,
  type SessionPersistence,
} from '@strand/persistence';
import { openPostgresPersistence } from '@strand/postgres';
import { createTestDatabase } from '@strand/postgres/testing';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { SessionQuery } from '@strand/query';
import { Session, SessionId, SessionStore, newSessionHeader } from '@strand/session';
import { workloadBatches, workloadTurns } from '@strand/workload';
import { line, median, medianMs, round, timeIt } from './bench-util.js';
import { measureCrossHostLag } from './postgres-lag.js';

const APPEND_EVENTS = 21_000;

async function appendRate(persistence: SessionPersistence, id: string): Promise<number> {
  const sid = SessionId(id);
  const header = newSessionHeader({ id: sid, createdAt: 1_700_000_000_000 });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, sid) });
  const turns = [...workloadTurns(0, APPEND_EVENTS)];
  const { ms } = await timeIt(async () => {
    for (const turn of turns) await session.append(turn);
  });
  return session.events.length / (ms / 1000);
}

async function writeBig(persistence: SessionPersistence, id: string): Promise<void> {
  const sid = SessionId(id);
  const header = newSessionHeader({ id: sid, createdAt: 1_700_000_000_000 });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, sid) });
  for (const batch of workloadBatches(0, 100_000, 1_000)) await session.append(batch);
}

async function coldObserveMs(persistence: SessionPersistence, id: string): Promise<number> {
  const registry = new ProjectionRegistry();
  for (const unit of BUILT_IN_UNITS) registry.register(unit);
  // capacity 0: every observation decodes; no cache: every observation folds from the log.
  const preparations = new SessionPreparations(persistence, { capacity: 0 });
  const query = new SessionQuery({ persistence, preparations, store: new SessionStore(), registry });
  try {
    (await query.observeSession(SessionId(id), { projectionMode: 'all' })).dispose(); // warm-up
    return await medianMs(5, async () =>
      (await query.observeSession(SessionId(id), { projectionMode: 'all' })).dispose(),
    );
  } finally {
    query.close();
  }
}

const root = mkdtempSync(path.join(tmpdir(), 'strand-bench-pg-'));
const database = await createTestDatabase('strand_bench');
try {
  const file = await openJsonlPersistence({ root });
  const pg = await openPostgresPersistence({ url: database.url });
  let fileAppendEventsPerSec: number;
  let pgAppendEventsPerSec: number;
  let fileColdObserveMs: number;
  let pgColdObserveMs: number;
  try {
    console.log(`durable appends, one turn (21 events) per append, ${APPEND_EVENTS} events`);
    // Alternate to spread the machine's noise over both backends.
    const fileRates: number[] = [];
    const pgRates: number[] = [];
    for (let round = 0; round < 3; round++) {
      fileRates.push(await appendRate(file, `append-${round}`));
      pgRates.push(await appendRate(pg, `append-${round}`));
    }
    fileAppendEventsPerSec = median(fileRates);
    pgAppendEventsPerSec = median(pgRates);
    line('file (JSONL + zstd)', `${Math.round(fileAppendEventsPerSec)} events/s`);
    line('PostgreSQL', `${Math.round(pgAppendEventsPerSec)} events/s`);
    line('PostgreSQL / file', round(pgAppendEventsPerSec / fileAppendEventsPerSec, 3));

    console.log('cold observeSession(all) of a 100k-event session');
    await writeBig(file, 'big');
    await writeBig(pg, 'big');
    fileColdObserveMs = await coldObserveMs(file, 'big');
    pgColdObserveMs = await coldObserveMs(pg, 'big');
    line('file (JSONL + zstd)', `${round(fileColdObserveMs)} ms`);
    line('PostgreSQL', `${round(pgColdObserveMs)} ms`);
    line('PostgreSQL / file', round(pgColdObserveMs / fileColdObserveMs, 3));
  } finally {
    await pg.close();
    await file.close();
  }

  console.log('cross-host follow lag (host A appends, a follower on host B receives)');
  const lag = await measureCrossHostLag(database.url, path.join(root, 'hosts'));
  line('p50', `${round(lag.p50Ms, 2)} ms`);
  line('p99', `${round(lag.p99Ms, 2)} ms (${lag.samples} events)`);

  console.log(
    JSON.stringify({
      pgAppendEventsPerSec: Math.round(pgAppendEventsPerSec),
      fileAppendEventsPerSec: Math.round(fileAppendEventsPerSec),
      pgColdObserveMs: round(pgColdObserveMs),
      fileColdObserveMs: round(fileColdObserveMs),
      crossHostLagP50Ms: round(lag.p50Ms, 2),
      crossHostLagP99Ms: round(lag.p99Ms, 2),
    }),
  );
} finally {
  await database.drop();
  rmSync(root, { recursive: true, force: true });
}
