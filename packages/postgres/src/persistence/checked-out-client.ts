import type pg from 'pg';

/**
 * Runs `use` on a client checked out of `pool`, then gives it back: destroyed instead when its
 * connection failed. A checked-out client has no pool listener, so a connection that dies emits
 * 'error' here (unhandled, that would end the process); the query in flight rejects too, so the
 * listener only marks the client. `markBroken` lets `use` report a failure it caught itself (a
 * ROLLBACK that failed: the client must not go back to the pool mid-transaction).
 */
export async function withCheckedOutClient<T>(
  pool: pg.Pool,
  use: (client: pg.PoolClient, markBroken: (error: Error) => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const markBroken = (error: Error): void => {
    broken = error;
  };
  client.on('error', markBroken);
  try {
    return await use(client, markBroken);
  } finally {
    client.off('error', markBroken);
    client.release(broken);
  }
}
