import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { StrandConnection } from '@strand/client';
import { StrandRpcError } from '@strand/protocol';
import { WebSocket } from 'ws';
import type { BrokenPromise } from './checker.js';
import type { Ledger } from './ledger.js';
import type { SoakClient } from './soak-client.js';

/** How long the clients may take to finish their last calls once the run is over. */
const STOP_GUARD_MS = 60_000;

/** A port nobody listens on now: a host's every incarnation listens there, so clients reconnect to the same URL. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Creates the sessions the clients share, retrying the ones a fault refused. */
export async function createSessions(rpcUrl: string, count: number, ledger: Ledger): Promise<string[]> {
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

/** Tells the clients' loops to stop, lets them finish their last calls (within a guard), and closes them. */
export async function finishClients(
  clients: readonly SoakClient[],
  loops: readonly Promise<void>[],
  stop: () => void,
  log: (line: string) => void,
): Promise<void> {
  stop();
  // A call the host never answers would hold the run forever: past the guard, closing the
  // clients rejects what is still waiting (counted as interrupted).
  const finished = await Promise.race([Promise.all(loops).then(() => true), sleep(STOP_GUARD_MS, false)]);
  if (!finished) log(`soak: clients still waiting ${STOP_GUARD_MS / 1000} s after the end; closing them`);
  for (const client of clients) client.close();
  await Promise.all(loops);
}

/** The clients' requests: answered (a result or a refusal) and cut by a kill. */
export function clientCounts(clients: readonly SoakClient[]): { answered: number; interrupted: number } {
  return clients.reduce(
    (sum, { counts }) => ({
      answered: sum.answered + counts.answered,
      interrupted: sum.interrupted + counts.interrupted,
    }),
    { answered: 0, interrupted: 0 },
  );
}

export function countBy(keys: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of [...keys].sort()) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

/** A broken promise as the failure line names it: what, where (session, seq), why. */
export function describeBroken(broken: BrokenPromise): string {
  const where =
    'session' in broken
      ? ` session ${broken.session}${'seq' in broken && broken.seq !== undefined ? ` seq ${broken.seq}` : ''}`
      : '';
  return `${broken.promise}${where}: ${broken.detail}`;
}
