import { defined } from '@strand/session';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkPromises, type Verdict } from './checker.js';
import { formatSchedule } from './fault-fs.js';
import { startHostProcess, type HostProcess } from './host-process.js';
import { emptyLedger } from './ledger.js';
import { drawPlan } from './plan.js';
import { Prng } from './prng.js';
import { reopenEverySession } from './reopen.js';
import { SoakClient, type SessionPool } from './soak-client.js';
import { lockLeftovers, readStoredLogs } from './stored-logs.js';
import {
  clientCounts,
  countBy,
  createSessions,
  describeBroken,
  finishClients,
  freePort,
} from './soak-parts.js';

export interface SoakOptions {
  readonly minutes: number;
  readonly seed: number;
  readonly clients?: number;
  readonly sessions?: number;
  /** Where progress lines go (default: nowhere). */
  readonly log?: (line: string) => void;
  /** Keep the data folder for a post-mortem (default: deleted after a green run). */
  readonly keepData?: boolean;
}

/** The run's figures: the last line a soak prints (the verdict's counts among them). */
export interface SoakSummary extends Omit<Verdict, 'broken'> {
  readonly minutes: number;
  readonly seed: number;
  /** Requests the host answered (a result or a refusal). */
  readonly commands: number;
  readonly kills: number;
  /** Storage faults that struck (each reported by the host process as it happened). */
  readonly faults: number;
  /** Requests cut by a lost socket (a kill): neither answered nor promised anything. */
  readonly interrupted: number;
  readonly acknowledged: number;
  readonly delivered: number;
  readonly refusals: number;
  /** The refusals by code (all of them documented on a green run): what the faults and the load met. */
  readonly refusalCodes: Readonly<Record<string, number>>;
  readonly sessions: number;
}

export interface SoakResult {
  readonly summary: SoakSummary;
  readonly verdict: Verdict;
  /** Why the run is red: the first broken promise, or too few kills or faults; undefined when green. */
  readonly failure?: string;
  readonly dataDir: string;
}

/** How long an incarnation waits for its first fault beyond its planned serving time. */
const FAULT_GUARD_MS = 30_000;

/**
 * One soak run (issue 48; docs/soak.md): the real host as a child process over a fresh data folder,
 * writing through the fault-injecting fs; `clients` clients over `sessions` sessions for `minutes`;
 * the host SIGKILLed and restarted on the plan drawn from `seed`; then, with the host stopped, every
 * promise checked against the logs as the persistence layer reads them, and every session reopened.
 */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => undefined);
  const prng = new Prng(options.seed);
  const durationMs = options.minutes * 60_000;
  const plan = drawPlan(prng, durationMs);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'strand-soak-'));
  const port = await freePort();
  const ledger = emptyLedger();
  let faults = 0;
  let kills = 0;
  /** Host processes that ended by themselves: a crash is a broken promise too. */
  const crashes: string[] = [];

  let host: HostProcess = await startHostProcess(dataDir, port, formatSchedule(plan.schedules[0]!));
  log(`soak: seed ${options.seed}, ${options.minutes} min, host at ${host.rpcUrl}, data ${dataDir}`);
  const pool: SessionPool = {
    ids: await createSessions(host.rpcUrl, options.sessions ?? 50, ledger),
    max: 80,
  };
  const clients = Array.from(
    { length: options.clients ?? 20 },
    (_, i) => new SoakClient(i, host.rpcUrl, prng.fork(), pool, ledger),
  );
  let running = true;
  const loops = clients.map((client) => client.run(() => running));
  const answered = (): number => clients.reduce((sum, client) => sum + client.counts.answered, 0);
  try {
    for (const [i, servesFor] of plan.servesFor.entries()) {
      // Serve the planned time, and at least until this incarnation's first fault struck (a hang
      // guard keeps a host no load reaches from holding the run).
      await Promise.all([sleep(servesFor), Promise.race([host.firstFault, sleep(FAULT_GUARD_MS)])]);
      const crash = host.crashed();
      if (crash !== undefined) crashes.push(crash);
      faults += host.faults.length;
      if (i === plan.servesFor.length - 1) break;
      await host.kill();
      kills++;
      log(`soak: kill ${kills} (${answered()} commands answered, ${faults} faults struck so far)`);
      host = await startHostProcess(dataDir, port, formatSchedule(plan.schedules[i + 1]!));
    }
  } finally {
    await finishClients(clients, loops, () => (running = false), log);
    const faultsBefore = host.faults.length;
    await host.stop();
    // A fault that struck while the clients finished their last calls.
    faults += host.faults.length - faultsBefore;
  }

  // The host is stopped: the logs as they are on disk, then every session reopened on a clean host.
  const stored = await readStoredLogs(dataDir);
  const fresh = await startHostProcess(dataDir, port, '');
  const notReopened = await reopenEverySession(fresh.rpcUrl, [...stored.keys()]);
  await fresh.stop();
  const lockLeft = await lockLeftovers(dataDir);
  const verdict = checkPromises({ ledger, stored, lockLeft, notReopened, crashes });

  const counts = clientCounts(clients);
  const summary: SoakSummary = {
    minutes: options.minutes,
    seed: options.seed,
    commands: counts.answered,
    kills,
    faults,
    lostAcknowledged: verdict.lostAcknowledged,
    lostDelivered: verdict.lostDelivered,
    undocumentedRefusals: verdict.undocumentedRefusals,
    locksLeft: verdict.locksLeft,
    crashes: verdict.crashes,
    notReopened: verdict.notReopened,
    interrupted: counts.interrupted,
    acknowledged: ledger.acknowledged.length,
    delivered: ledger.delivered.length,
    refusals: ledger.refusals.length,
    refusalCodes: countBy(ledger.refusals.map(({ code }) => code ?? '(none)')),
    sessions: stored.size,
  };
  const first = verdict.broken[0];
  const failure =
    first !== undefined
      ? describeBroken(first)
      : faults < 3
        ? `only ${faults} faults struck (at least 3 are promised): too little load for the plan`
        : undefined;
  if (failure === undefined && options.keepData !== true) await rm(dataDir, { recursive: true, force: true });
  return { summary, verdict, dataDir, ...defined({ failure }) };
}
