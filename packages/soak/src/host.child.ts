/**
 * The soak's host: composed as `strand serve` composes it (the data-folder lock, the runtime over
 * the files store, the host on a port), but with the JSONL backend writing through a
 * fault-injecting fs — the runtime's test-only `wrapPersistence` option, which no `strand serve`
 * flag reaches. Arguments: the data folder, the port, the fault schedule (`formatSchedule`, may be
 * empty) and, for the PostgreSQL soak, the database URL and the lease TTL: then the store is that
 * database and its persistence queries through a fault-injecting pool (`formatPgSchedule`). Prints `{"rpcUrl":…}` once serving, `{"fault":…,"at":…}` as each fault strikes and
 * `{"error":…}` for each error its logger hears; on
 * SIGTERM it closes in order and releases the lock (SIGKILL is the other way it ends).
 */
import path from 'node:path';
import { acquireDataFolderLock } from '@strand/cli/data-lock';
import { startHost } from '@strand/host';
import { JsonlSessionPersistence, type SessionPersistence } from '@strand/persistence';
import { PostgresPersistence } from '@strand/postgres';
import { openStrandRuntime, type RuntimeOptions } from '@strand/runtime';
import type { Logger } from '@strand/session';
import pg from 'pg';
import { faultInjectingFs, parseSchedule } from './fault-fs.js';
import { faultInjectingPool, parsePgSchedule } from './pg-fault-pool.js';

const [dataDir, port, scheduleText, pgUrl, leaseTtl] = process.argv.slice(2) as [
  string,
  string,
  string | undefined,
  string | undefined,
  string | undefined,
];
const root = path.resolve(dataDir);
const say = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);
const onFault = (fault: { kind: string; at: number }): void => say({ fault: fault.kind, at: fault.at });

/** The runtime's options: the files store on a faulty fs, or the database through a faulty pool. */
function storeOptions(): Pick<RuntimeOptions, 'store' | 'leaseTtlMs' | 'wrapPersistence'> {
  if (pgUrl === undefined) {
    const fs = faultInjectingFs(parseSchedule(scheduleText ?? ''), onFault);
    return { wrapPersistence: () => new JsonlSessionPersistence(root, { root, fs }) };
  }
  const pool = new pg.Pool({ connectionString: pgUrl, max: 8, application_name: 'strand-persistence' });
  // As openPostgresPersistence does: an idle connection that dies (a terminated backend) is dropped by the pool.
  pool.on('error', () => undefined);
  const faulty = faultInjectingPool(pool, parsePgSchedule(scheduleText ?? ''), onFault);
  return {
    store: pgUrl,
    leaseTtlMs: Number(leaseTtl),
    // The store's own persistence opened the schema; the soak's writes go through its faulty pool.
    wrapPersistence: (opened: SessionPersistence) => {
      void opened.close();
      return new PostgresPersistence(faulty);
    },
  };
}

/** What the host logged as an error (a method that failed unexpectedly, a lost connection): reported for the soak's log. */
const report = (message: string, fields?: Record<string, unknown>): void => {
  const cause = fields?.error;
  // The message and the first frames: enough to find the code, short enough for a long run's log.
  const detail =
    cause instanceof Error
      ? (cause.stack ?? cause.message).split('\n').slice(0, 4).join('\n')
      : JSON.stringify(fields ?? {});
  say({ error: `${message}${typeof fields?.method === 'string' ? ` (${fields.method})` : ''}: ${detail}` });
};
const logger: Logger = {
  error: report,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
};

const lock = await acquireDataFolderLock(root, { command: 'soak', note: () => undefined });
const runtime = await openStrandRuntime({ dataDir: root, logger, ...storeOptions() });
const host = await startHost({ services: runtime.services, port: Number(port) });
say({ rpcUrl: host.rpcUrl });

process.once('SIGTERM', () => {
  void (async () => {
    await host.close();
    await runtime.close();
    await lock.release();
    process.exit(0);
  })();
});
// Serve until stopped or killed.
setInterval(() => undefined, 60_000);
