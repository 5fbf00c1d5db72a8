/**
 * Many sessions appending at once (a subagent fan-out, many people on one corpus) against one
 * session alone, on one store in one run: each session appends one-turn batches of the standard
 * workload (generated before the clock starts), each append awaited before the next, and all
 * sessions run concurrently.
 */
import { persistenceWriter, type SessionPersistence } from '@strand/persistence';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { workloadTurns } from '@strand/workload';
import { line, median, round, timeIt } from './bench-util.js';

/** The fan-out the target names: 50 sessions at once. */
export const CONCURRENT_SESSIONS = 50;

export interface ConcurrentAppendFigures {
  /** Events/s of one session appending one-turn batches alone (this and the rest: medians of the rounds). */
  readonly oneSessionEventsPerSec: number;
  /** Events/s of all sessions together, appending at once. */
  readonly concurrentEventsPerSec: number;
  /** The second over the first: how much the store shares its work across sessions. */
  readonly speedup: number;
  /** Wall time per event of one session alone, µs: its CPU plus its share of one sync per append. */
  readonly oneSessionWallUsPerEvent: number;
  /** Process CPU time (every thread) per event, µs, of one session alone and of all at once. */
  readonly oneSessionCpuUsPerEvent: number;
  readonly concurrentCpuUsPerEvent: number;
  /**
   * The speedup the fan-out could reach if it were bound by its CPU alone, on one core (a SQLite
   * write connection is one thread): one session's wall time per event over the fan-out's CPU per
   * event. Grouping removes syncs, never this work, so `speedup` cannot pass it on one core (nor
   * twice it on two). See packages/persistence/README.md, "What bounds the fan-out".
   */
  readonly cpuBoundSpeedupOneCore: number;
}

interface Rate {
  readonly eventsPerSec: number;
  readonly wallUsPerEvent: number;
  readonly cpuUsPerEvent: number;
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
): Promise<Rate> {
  const started = await Promise.all(
    Array.from({ length: sessions }, (_, i) => startSession(persistence, `${prefix}-${i}`)),
  );
  // Generated before the clock starts, as `writeSession` does: timed, the generator would be
  // measured too, and a backend that waits on other threads (JSONL's syncs) overlaps it with its
  // own work when sessions write at once but not alone, which inflated its ratio.
  const turns = started.map((_, i) => [...workloadTurns(i, eventsEach)]);
  const cpuBefore = process.cpuUsage();
  const { ms } = await timeIt(() =>
    Promise.all(
      started.map(async (session, i) => {
        for (const turn of turns[i]!) await session.append(turn);
      }),
    ),
  );
  const cpu = process.cpuUsage(cpuBefore);
  const events = started.reduce((sum, session) => sum + session.events.length, 0);
  return {
    eventsPerSec: events / (ms / 1000),
    wallUsPerEvent: (ms * 1000) / events,
    cpuUsPerEvent: (cpu.user + cpu.system) / events,
  };
}

/**
 * How many times `measureConcurrentAppends` measures one session then the fan-out, back to back.
 * On a shared disk one session's sync time swings several-fold within minutes (a neighbour's
 * I/O), and the speedup divides by it; a ratio of two adjacent runs, median of three, is steadier
 * than one pair.
 */
export const CONCURRENT_ROUNDS = 3;

/**
 * One session alone, then `CONCURRENT_SESSIONS` at once, on `persistence`, `rounds` times; prints
 * each round and returns the medians (the speedup and the ceiling: medians of each round's ratio).
 */
export async function measureConcurrentAppends(
  persistence: SessionPersistence,
  eventsEach = 2_100,
  rounds = CONCURRENT_ROUNDS,
): Promise<ConcurrentAppendFigures> {
  const measured: { alone: Rate; atOnce: Rate }[] = [];
  for (let round_ = 0; round_ < rounds; round_++) {
    const alone = await appendRate(persistence, `alone-${round_}`, 1, eventsEach * 4);
    const atOnce = await appendRate(persistence, `fan-out-${round_}`, CONCURRENT_SESSIONS, eventsEach);
    measured.push({ alone, atOnce });
    line(
      `round ${round_ + 1}: one session | ${CONCURRENT_SESSIONS} at once`,
      `${Math.round(alone.eventsPerSec)} | ${Math.round(atOnce.eventsPerSec)} events/s, ` +
        `${round(atOnce.eventsPerSec / alone.eventsPerSec, 2)}×`,
    );
  }
  const mid = (pick: (m: { alone: Rate; atOnce: Rate }) => number): number => median(measured.map(pick));
  const figures: ConcurrentAppendFigures = {
    oneSessionEventsPerSec: mid((m) => m.alone.eventsPerSec),
    concurrentEventsPerSec: mid((m) => m.atOnce.eventsPerSec),
    speedup: mid((m) => m.atOnce.eventsPerSec / m.alone.eventsPerSec),
    oneSessionWallUsPerEvent: mid((m) => m.alone.wallUsPerEvent),
    oneSessionCpuUsPerEvent: mid((m) => m.alone.cpuUsPerEvent),
    concurrentCpuUsPerEvent: mid((m) => m.atOnce.cpuUsPerEvent),
    cpuBoundSpeedupOneCore: mid((m) => m.alone.wallUsPerEvent / m.atOnce.cpuUsPerEvent),
  };
  line(
    'append, one turn per append, one session (median)',
    `${Math.round(figures.oneSessionEventsPerSec)} events/s (${round(figures.oneSessionWallUsPerEvent, 1)} µs/event, CPU ${round(figures.oneSessionCpuUsPerEvent, 1)} µs/event)`,
  );
  line(
    `append, one turn per append, ${CONCURRENT_SESSIONS} sessions at once (median)`,
    `${Math.round(figures.concurrentEventsPerSec)} events/s (${round(figures.speedup, 2)}× one session; CPU ${round(figures.concurrentCpuUsPerEvent, 1)} µs/event)`,
  );
  line(
    '  CPU-bound ceiling on one core (alone wall / at-once CPU)',
    `${round(figures.cpuBoundSpeedupOneCore, 2)}× (target 5)`,
  );
  return figures;
}
