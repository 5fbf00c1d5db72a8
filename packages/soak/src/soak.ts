import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StrandConnection } from '@strand/client';
import { StrandRpcError } from '@strand/protocol';
import { WebSocket } from 'ws';
import { checkPromises, type BrokenPromise, type Verdict } from './checker.js';
import { startHostProcess, type HostProcess } from './host-process.js';
import { emptyLedger, type Ledger } from './ledger.js';
import { drawPlan } from './plan.js';
import { Prng } from './prng.js';
import { reopenEverySession } from './reopen.js';
import { SoakClient, type SessionPool } from './soak-client.js';
import { lockLeftovers, readStoredLogs } from './stored-logs.js';

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

/** How long the clients may take to finish their last calls once the run is over. */
const STOP_GUARD_MS = 60_000;

/** A port nobody listens on now: the host's every incarnation listens there, so clients reconnect to the same URL. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Creates the sessions the clients share, retrying the ones a fault refused. */
async function createSessions(rpcUrl: string, count: number, ledger: Ledger): Promise<string[]> {
  const connection = new StrandConnection({ url: rpcUrl, WebSocket: WebSocket });
  const ids: string[] = [];
  try {
    while (ids.length < count) {
      try {
        const { id } = await connection.call('session.create', { cwd: `/soak/project-${ids.length % 5}` });
        ledger.acknowledged.push({ session: id, method: 'session.create' });
        ids.push(id);
      } catch (error) {
        if (!(error instanceof StrandRpcError)) throw error;
        ledger.refusals.push({ method: 'session.create', code: error.code, message: error.message });
      }
    }
  } finally {
    connection.close();
  }
  return ids;
}

function countBy(keys: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of [...keys].sort()) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

function describe(broken: BrokenPromise): string {
  const where =
    'session' in broken
      ? ` session ${broken.session}${'seq' in broken && broken.seq !== undefined ? ` seq ${broken.seq}` : ''}`
      : '';
  return `${broken.promise}${where}: ${broken.detail}`;
}

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

  let host: HostProcess = await startHostProcess(dataDir, port, plan.schedules[0]!);
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
      host = await startHostProcess(dataDir, port, plan.schedules[i + 1]!);
    }
  } finally {
    running = false;
    // A call the host never answers would hold the run forever: past the guard, closing the
    // clients rejects what is still waiting (counted as interrupted).
    const finished = await Promise.race([Promise.all(loops).then(() => true), sleep(STOP_GUARD_MS, false)]);
    if (!finished) log(`soak: clients still waiting ${STOP_GUARD_MS / 1000} s after the end; closing them`);
    for (const client of clients) client.close();
    await Promise.all(loops);
    const faultsBefore = host.faults.length;
    await host.stop();
    // A fault that struck while the clients finished their last calls.
    faults += host.faults.length - faultsBefore;
  }

  // The host is stopped: the logs as they are on disk, then every session reopened on a clean host.
  const stored = await readStoredLogs(dataDir);
  const fresh = await startHostProcess(dataDir, port, []);
  const notReopened = await reopenEverySession(fresh.rpcUrl, [...stored.keys()]);
  await fresh.stop();
  const lockLeft = await lockLeftovers(dataDir);
  const verdict = checkPromises({ ledger, stored, lockLeft, notReopened, crashes });

  const counts = clients.reduce(
    (sum, { counts }) => ({
      answered: sum.answered + counts.answered,
      interrupted: sum.interrupted + counts.interrupted,
    }),
    { answered: 0, interrupted: 0 },
  );
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
      ? describe(first)
      : faults < 3
        ? `only ${faults} faults struck (at least 3 are promised): too little load for the plan`
        : undefined;
  if (failure === undefined && options.keepData !== true) await rm(dataDir, { recursive: true, force: true });
  return { summary, verdict, dataDir, ...(failure === undefined ? {} : { failure }) };
}
