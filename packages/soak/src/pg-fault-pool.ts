import type { Socket } from 'node:net';
import type pg from 'pg';

/**
 * The faults the PostgreSQL soak injects into the persistence's pool:
 * - `statement`: the server refuses the write statement (SQLSTATE 53100, disk full): nothing of it is stored;
 * - `drop`: the statement is sent, then the connection is cut before its answer — the write may or
 *   may not have committed, and the host cannot know which (the ambiguous failure a network gives).
 */
export type PgFaultKind = 'statement' | 'drop';
export const PG_FAULT_KINDS: readonly PgFaultKind[] = ['statement', 'drop'];

/** One scheduled fault: it strikes the `at`-th write statement (counted from 1) of the process. */
export interface ScheduledPgFault {
  readonly kind: PgFaultKind;
  readonly at: number;
}

/** A write statement: the start of an append or a creation (reads, BEGIN and COMMIT are not counted). */
const WRITE = /^\s*(WITH\b[\s\S]*\b)?(INSERT|UPDATE|DELETE)\b/i;

function textOf(query: unknown): string {
  if (typeof query === 'string') return query;
  const text = (query as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}

function refused(at: number): Error {
  return Object.assign(new Error(`could not extend file: injected by the soak (write statement #${at})`), {
    code: '53100',
    severity: 'ERROR',
  });
}

/** The socket under a pg client (not in its typings): cutting it is what a network failure does. */
const socketOf = (client: pg.PoolClient): Socket =>
  (client as unknown as { connection: { stream: Socket } }).connection.stream;

/**
 * `pool` as the PostgreSQL persistence queries it, with `schedule`'s faults injected at the write
 * statements they name — whether sent through `pool.query` or a checked-out client's `query`.
 * `onFault` hears each fault as it strikes. Every other member is the pool's own.
 */
export function faultInjectingPool(
  pool: pg.Pool,
  schedule: readonly ScheduledPgFault[],
  onFault: (fault: ScheduledPgFault) => void = () => undefined,
): pg.Pool {
  const byOrdinal = new Map(schedule.map((fault) => [fault.at, fault]));
  let writes = 0;
  const faultFor = (query: unknown): ScheduledPgFault | undefined =>
    WRITE.test(textOf(query)) ? byOrdinal.get(++writes) : undefined;

  /**
   * Sends `query` on `client`, then cuts its connection at once: the bytes are in the kernel's send
   * buffer (pg writes an idle client's query synchronously), so the server may well run the
   * statement, but its answer never arrives.
   */
  const sendAndDrop = async (client: pg.PoolClient, query: unknown, values: unknown): Promise<never> => {
    const pending = client.query(query as string, values as unknown[]);
    socketOf(client).destroy();
    await pending;
    throw new Error('the connection was cut, yet the statement answered');
  };

  const strike = async (
    fault: ScheduledPgFault,
    client: pg.PoolClient,
    query: unknown,
    values: unknown,
  ): Promise<never> => {
    onFault(fault);
    if (fault.kind === 'statement') throw refused(fault.at);
    return sendAndDrop(client, query, values);
  };

  const wrapClient = (client: pg.PoolClient): pg.PoolClient =>
    new Proxy(client, {
      get(target, property) {
        if (property === 'query')
          return (query: unknown, values?: unknown) => {
            const fault = faultFor(query);
            if (fault === undefined) return target.query(query as string, values as unknown[]);
            return strike(fault, target, query, values);
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });

  return new Proxy(pool, {
    get(target, property) {
      if (property === 'connect') return async () => wrapClient(await target.connect());
      if (property === 'query')
        return async (query: unknown, values?: unknown) => {
          const fault = faultFor(query);
          if (fault === undefined) return target.query(query as string, values as unknown[]);
          const client = await target.connect();
          // The cut connection reports an error on the client too: heard here, answered by the query's rejection.
          client.on('error', () => undefined);
          try {
            return await strike(fault, client, query, values);
          } finally {
            client.release(true);
          }
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The schedule as one argv string (`statement@4,drop@30`), and back; refuses anything else. */
export function formatPgSchedule(schedule: readonly ScheduledPgFault[]): string {
  return schedule.map(({ kind, at }) => `${kind}@${at}`).join(',');
}

export function parsePgSchedule(text: string): ScheduledPgFault[] {
  if (text === '') return [];
  return text.split(',').map((part) => {
    const match = /^(statement|drop)@([1-9][0-9]{0,8})$/.exec(part);
    if (match === null) throw new Error(`bad fault "${part}": expected <statement|drop>@<n>`);
    return { kind: match[1] as PgFaultKind, at: Number(match[2]) };
  });
}
