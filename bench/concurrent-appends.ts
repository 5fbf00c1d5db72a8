/**
 * Many sessions appending at once (a subagent fan-out, many people on one corpus) against one
 * session alone, on one store in one run: each session appends one-turn batches of the standard
 * workload (generated before the clock starts), each append awaited before the next, and all
 * sessions run concurrently.
 */
import { persistenceWriter, type SessionPersistence } from '@strand/persistence';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { workloadTurns } from '@strand/workload';
import { line, round, timeIt } from './bench-util.js';

/** The fan-out the target names: 50 sessions at once. */
export const CONCURRENT_SESSIONS = 50;

export interface ConcurrentAppendFigures {
  /** Events/s of one session appending one-turn batches alone. */
  readonly oneSessionEventsPerSec: number;
  /** Events/s of all sessions together, appending at once. */
  readonly concurrentEventsPerSec: number;
  /** The second over the first: how much the store shares its work across sessions. */
  readonly speedup: number;
}

async function startSession(persistence: SessionPersistence, id: string): Promise<Session> {
  const sid = SessionId(id);
  const header = newSessionHeader({ id: sid, createdAt: 1_700_000_000_000 });
  const { incarnation } = await persistence.create({ header });
  return new Session({ header, incarnation, writer: persistenceWriter(persistence, sid) });
}

/** Events/s of `sessions` sessions, each appending `eventsEach` events one turn at a time, all at once. */
async function appendRate(
  persistence: SessionPersistence,
  prefix: string,
  sessions: number,
  eventsEach: number,
): Promise<number> {
  const started = await Promise.all(
    Array.from({ length: sessions }, (_, i) => startSession(persistence, `${prefix}-${i}`)),
  );
  // Generated before the clock starts, as `writeSession` does: timed, the generator would be
  // measured too, and a backend that waits on other threads (JSONL's syncs) overlaps it with its
  // own work when sessions write at once but not alone, which inflated its ratio.
  const turns = started.map((_, i) => [...workloadTurns(i, eventsEach)]);
  const { ms } = await timeIt(() =>
    Promise.all(
      started.map(async (session, i) => {
        for (const turn of turns[i]!) await session.append(turn);
      }),
    ),
  );
  const events = started.reduce((sum, session) => sum + session.events.length, 0);
  return events / (ms / 1000);
}

/** One session alone, then `CONCURRENT_SESSIONS` at once, on `persistence`; prints both. */
export async function measureConcurrentAppends(
  persistence: SessionPersistence,
  eventsEach = 2_100,
): Promise<ConcurrentAppendFigures> {
  const oneSessionEventsPerSec = await appendRate(persistence, 'alone', 1, eventsEach * 4);
  const concurrentEventsPerSec = await appendRate(persistence, 'fan-out', CONCURRENT_SESSIONS, eventsEach);
  const speedup = concurrentEventsPerSec / oneSessionEventsPerSec;
  line('append, one turn per append, one session', `${Math.round(oneSessionEventsPerSec)} events/s`);
  line(
    `append, one turn per append, ${CONCURRENT_SESSIONS} sessions at once`,
    `${Math.round(concurrentEventsPerSec)} events/s (${round(speedup, 2)}× one session)`,
  );
  return { oneSessionEventsPerSec, concurrentEventsPerSec, speedup };
}
