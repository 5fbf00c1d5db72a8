import pg from 'pg';
import { afterEach } from 'vitest';
import { APPENDS_CHANNEL } from '../persistence/append-notice.js';
import type { PostgresPersistence } from '../persistence/postgres-persistence.js';
import { createTestDatabase, type TestDatabase } from './pg-test-database.js';

/** Hosts sharing one fresh database per test; `afterEach` runs the cleanups (last first) and drops it. */
export interface PersistenceHosts {
  /** Another store (a host) on this test's database, created on first use. */
  readonly host: () => Promise<PostgresPersistence>;
  /** This test's database URL (after the first `host()`). */
  readonly url: () => string;
  /**
   * A connection listening on `APPENDS_CHANNEL` (after the first `host()`): `payloads` in arrival
   * order; `received()` is a round trip on it, after which it holds every notice committed before.
   */
  readonly listenAppends: () => Promise<{
    readonly payloads: string[];
    readonly received: () => Promise<void>;
  }>;
  /** Runs after the test, before the database is dropped. */
  readonly cleanup: (step: () => Promise<unknown>) => void;
}

/** Registers the per-test database and cleanups in the calling `describe`. Not exported: test code only. */
export function persistenceHosts(open: (url: string) => Promise<PostgresPersistence>): PersistenceHosts {
  let db: TestDatabase | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanups.splice(0).reverse()) await step();
    await db?.drop();
    db = undefined;
  });
  const url = (): string => {
    if (db === undefined) throw new Error('no test database yet: call host() first');
    return db.url;
  };
  return {
    host: async () => {
      db ??= await createTestDatabase();
      const p = await open(db.url);
      cleanups.push(() => p.close());
      return p;
    },
    url,
    listenAppends: async () => {
      const listener = new pg.Client({ connectionString: url() });
      await listener.connect();
      cleanups.push(() => listener.end());
      const payloads: string[] = [];
      listener.on('notification', (message) => {
        if (message.channel === APPENDS_CHANNEL) payloads.push(message.payload ?? '');
      });
      await listener.query(`LISTEN ${APPENDS_CHANNEL}`);
      return { payloads, received: async () => void (await listener.query('SELECT 1')) };
    },
    cleanup: (step) => {
      cleanups.push(step);
    },
  };
}
