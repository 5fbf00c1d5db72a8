import { defined } from '@strand/session';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openPostgresPersistence } from '@strand/postgres';
import { createTestDatabase, sqlOnce } from '@strand/postgres/testing';
import { checkPromises, type Verdict } from './checker.js';
import { startHostProcess, type HostDatabase, type HostProcess } from './host-process.js';
import { checkTakeovers, type KilledLeases } from './lease-check.js';
import { emptyLedger } from './ledger.js';
import { formatPgSchedule } from './pg-fault-pool.js';
import { drawPostgresPlan } from './plan.js';
import { Prng } from './prng.js';
import { reopenEverySession } from './reopen.js';
import { SoakClient, type SessionPool } from './soak-client.js';
import {
  clientCounts,
  countBy,
  createSessions,
  describeBroken,
  finishClients,
  freePort,
} from './soak-parts.js';
import { lockLeftovers, readPersistedLogs } from './stored-logs.js';

export interface PostgresSoakOptions {
  readonly minutes: number;
  readonly seed: number;
  readonly clients?: number;
  readonly sessions?: number;
  /** How long a lease outlives a host that stopped renewing it (default 3 s: a short run still waits one out). */
  readonly leaseTtlMs?: number;
  readonly log?: (line: string) => void;
  /** Keep the database and the data folders (default: dropped after a green run). */
  readonly keepData?: boolean;
}

/** The PostgreSQL run's figures: the `postgres` block of the last line. */
export interface PostgresSoakSummary extends Omit<Verdict, 'broken'> {
  readonly minutes: number;
  readonly seed: number;
  readonly commands: number;
  readonly kills: number;
  /** Write faults that struck (failed statements, connections cut mid-append). */
  readonly faults: number;
  /** Host backends ended by `pg_terminate_backend`. */
  readonly terminations: number;
  /** Writes the other host acknowledged on a killed host's session before its lease ran out (a broken promise). */
  readonly takenEarly: number;
  /** The leases the host left to expire held when it was killed, and how many of those sessions the other host wrote to after. */
  readonly leasesLeftToExpire: number;
  readonly takenOver: number;
  readonly interrupted: number;
  readonly acknowledged: number;
  readonly delivered: number;
  readonly refusals: number;
  readonly refusalCodes: Readonly<Record<string, number>>;
  readonly sessions: number;
}

export interface PostgresSoakResult {
  readonly summary: PostgresSoakSummary;
  readonly failure?: string;
  /** Where a failed run's evidence is: the database URL and the two data folders. */
  readonly kept: string;
}

const FAULT_GUARD_MS = 30_000;

/** A lease of a killed process: its owner is `hostname:pid:random` (SessionLeases). */
const leasesOf = async (url: string, pid: number): Promise<Map<string, number>> => {
  const { rows } = await sqlOnce(
    url,
    `SELECT session_id, expires_at FROM strand_session_leases WHERE split_part(owner, ':', 2) = $1`,
    [String(pid)],
  );
  return new Map(
    rows.map((row: { session_id: string; expires_at: Date }) => [row.session_id, row.expires_at.getTime()]),
  );
};

/** Ends one of the hosts' backends at random (never the soak's own): what a failover or an operator does. */
async function terminateABackend(url: string, prng: Prng): Promise<boolean> {
  const { rows } = await sqlOnce(
    url,
    `SELECT pid FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'strand%'
      ORDER BY pid`,
  );
  if (rows.length === 0) return false;
  const { pid } = prng.pick(rows as { pid: number }[]);
  const ended = await sqlOnce(url, 'SELECT pg_terminate_backend($1) AS ended', [pid]);
  return (ended.rows[0] as { ended: boolean }).ended;
}

/** Leases still held: by a process that ended in order (it must have released them), or not yet run out. */
async function leasesLeft(url: string, killedPids: ReadonlySet<number>): Promise<string[]> {
  const { rows } = await sqlOnce(
    url,
    'SELECT session_id, owner FROM strand_session_leases WHERE expires_at > now()',
  );
  return (rows as { session_id: string; owner: string }[])
    .filter(({ owner }) => !killedPids.has(Number(owner.split(':')[1])))
    .map(({ session_id, owner }) => `session ${session_id}'s lease is still held by ${owner}`);
}

/** Waits until every lease in the database ran out (a killed host's leases block the reopen otherwise). */
async function untilLeasesExpire(url: string): Promise<void> {
  const { rows } = await sqlOnce(
    url,
    'SELECT greatest(0, extract(epoch FROM max(expires_at) - now()) * 1000)::int AS ms FROM strand_session_leases',
  );
  const ms = (rows[0] as { ms: number | null }).ms ?? 0;
  if (ms > 0) await sleep(ms + 100);
}

/**
 * The PostgreSQL soak (issue 48; docs/soak.md): two host processes on one fresh database (created on
 * the `STRAND_TEST_PG_URL` server), the clients spread over both; per the plan drawn from `seed`,
 * SIGKILLs of either host, write faults through the persistence's faulty pool, backends terminated,
 * and one kill whose host stays down until its leases ran out. Then, with both stopped, every promise
 * checked against the database read through the PostgreSQL persistence, and every session reopened.
 */
export async function runPostgresSoak(options: PostgresSoakOptions): Promise<PostgresSoakResult> {
  const log = options.log ?? (() => undefined);
  const prng = new Prng(options.seed);
  const plan = drawPostgresPlan(prng, options.minutes * 60_000);
  const db = await createTestDatabase('strand_soak');
  const database: HostDatabase = { url: db.url, leaseTtlMs: options.leaseTtlMs ?? 3_000 };
  // Host 0's, host 1's and the clean host's the sessions reopen on.
  const dataDirs = await Promise.all([0, 1, 2].map(() => mkdtemp(path.join(tmpdir(), 'strand-soak-pg-'))));
  const ports = [await freePort(), await freePort()];
  const ledger = emptyLedger();
  const crashes: string[] = [];
  const killed: KilledLeases[] = [];
  const killedPids = new Set<number>();
  let faults = 0;
  let terminations = 0;
  let leasesLeftToExpire = 0;
  let nextSchedule = 2;

  const start = (host: number, schedule: number): Promise<HostProcess> =>
    startHostProcess(
      dataDirs[host]!,
      ports[host]!,
      formatPgSchedule(plan.schedules[schedule]!),
      database,
      (line) => log(`soak: host ${host} logged ${line}`),
    );
  // Together, as hosts of one deployment start: the schema is created once, under its lock.
  const hosts: HostProcess[] = await Promise.all([start(0, 0), start(1, 1)]);
  log(
    `soak (PostgreSQL): seed ${options.seed}, ${options.minutes} min, hosts at ${hosts.map((h) => h.rpcUrl).join(' and ')}, ${db.url}`,
  );
  const pool: SessionPool = {
    ids: await createSessions(hosts[0]!.rpcUrl, options.sessions ?? 50, ledger),
    max: 80,
  };
  const hostOf = (client: number): number => client % 2;
  const clients = Array.from(
    { length: options.clients ?? 20 },
    (_, i) => new SoakClient(i, hosts[hostOf(i)]!.rpcUrl, prng.fork(), pool, ledger),
  );
  let running = true;
  const loops = clients.map((client) => client.run(() => running));
  const terminate = async (after: number): Promise<void> => {
    await sleep(after);
    if (await terminateABackend(db.url, prng)) terminations++;
  };
  /** The clean host (no faults, its own folder) every session reopens on: started during the last stretch. */
  let fresh: Promise<HostProcess> | undefined;
  try {
    for (const [i, servesFor] of plan.servesFor.entries()) {
      const victim = plan.killed[i];
      if (victim === undefined) fresh = startHostProcess(dataDirs[2]!, await freePort(), '', database);
      // Serve the planned time (a backend terminated inside it), and at least until the host about
      // to be killed met its first fault (a hang guard keeps a host no load reaches from holding the run).
      await Promise.all([
        sleep(servesFor),
        terminate(plan.terminateAfter[i]!),
        victim === undefined ? undefined : Promise.race([hosts[victim]!.firstFault, sleep(FAULT_GUARD_MS)]),
      ]);
      if (victim === undefined) break;
      const dead = hosts[victim]!;
      const crash = dead.crashed();
      if (crash !== undefined) crashes.push(crash);
      await dead.kill();
      const killedAt = Date.now();
      killedPids.add(dead.pid);
      faults += dead.faults.length;
      const expiresAt = await leasesOf(db.url, dead.pid);
      killed.push({ host: victim, killedAt, expiresAt });
      log(
        `soak: kill ${killed.length} (host ${victim}, ${expiresAt.size} leases held; ${clientCounts(clients).answered} commands answered)`,
      );
      if (killed.length - 1 === plan.leaseExpiresAfterKill) {
        // The lease left to expire: the other host serves the dead one's sessions only once it ran out.
        leasesLeftToExpire = expiresAt.size;
        await sleep(Math.max(0, ...expiresAt.values()) - Date.now() + 200);
      }
      hosts[victim] = await start(victim, nextSchedule++);
      log(`soak: host ${victim} restarted`);
    }
  } finally {
    await finishClients(clients, loops, () => (running = false), log);
    for (const host of hosts) {
      const crash = host.crashed();
      if (crash !== undefined) crashes.push(crash);
      await host.stop();
      faults += host.faults.length;
    }
  }

  log('soak: both hosts stopped; checking');
  const stored = await readPersistedLogs(await openPostgresPersistence({ url: db.url }));
  const leftByStopped = await leasesLeft(db.url, killedPids);
  await untilLeasesExpire(db.url);
  const clean = await (fresh ?? startHostProcess(dataDirs[2]!, await freePort(), '', database));
  const notReopened = await reopenEverySession(clean.rpcUrl, [...stored.keys()]);
  await clean.stop();
  const lockLeft = [
    ...leftByStopped,
    ...(await leasesLeft(db.url, new Set())),
    ...(await Promise.all(dataDirs.map(lockLeftovers))).flat(),
  ];
  const verdict = checkPromises({ ledger, stored, lockLeft, notReopened, crashes });
  const takeovers = checkTakeovers(ledger.acknowledged, killed, hostOf);
  const counts = clientCounts(clients);
  const summary: PostgresSoakSummary = {
    minutes: options.minutes,
    seed: options.seed,
    commands: counts.answered,
    kills: killed.length,
    faults,
    terminations,
    lostAcknowledged: verdict.lostAcknowledged,
    lostDelivered: verdict.lostDelivered,
    undocumentedRefusals: verdict.undocumentedRefusals,
    locksLeft: verdict.locksLeft,
    crashes: verdict.crashes,
    notReopened: verdict.notReopened,
    takenEarly: takeovers.early.length,
    leasesLeftToExpire,
    takenOver: takeovers.takenOver,
    interrupted: counts.interrupted,
    acknowledged: ledger.acknowledged.length,
    delivered: ledger.delivered.length,
    refusals: ledger.refusals.length,
    refusalCodes: countBy(ledger.refusals.map(({ code }) => code ?? '(none)')),
    sessions: stored.size,
  };
  const first = verdict.broken[0] ?? takeovers.early[0];
  const failure =
    first !== undefined
      ? describeBroken(first)
      : faults < 3
        ? `only ${faults} faults struck (at least 3 are promised): too little load for the plan`
        : terminations < 2
          ? `only ${terminations} backends were terminated (at least 2 are promised)`
          : undefined;
  const kept = `${db.url} ${dataDirs.join(' ')}`;
  if (failure === undefined && options.keepData !== true) {
    await db.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  }
  return { summary, kept, ...defined({ failure }) };
}
