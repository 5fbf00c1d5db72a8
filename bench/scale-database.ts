/**
 * The PostgreSQL database of a `bench:scale` corpus, on the server of STRAND_TEST_PG_URL: the one
 * the corpus folder names when that server still has it (a resumed or measured-again corpus), else
 * a new one (`fresh`: its progress starts over). A throwaway corpus's database is dropped after.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScaleDatabase {
  readonly url: string;
  /** Created by this call: nothing of an earlier run is in it. */
  readonly fresh: boolean;
  /** Drops a throwaway database; keeps any other. */
  release(): Promise<void>;
}

export async function openScaleDatabase(file: string, throwaway: boolean): Promise<ScaleDatabase> {
  const server = process.env.STRAND_TEST_PG_URL;
  if (server === undefined) throw new Error('no PostgreSQL server: set STRAND_TEST_PG_URL');
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    const named = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as { name: string }).name
      : undefined;
    const kept =
      named !== undefined &&
      (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [named])).rowCount === 1;
    const name = kept ? named : `strand_bench_scale_${randomBytes(6).toString('hex')}`;
    if (!kept) {
      await admin.query(`CREATE DATABASE ${name}`);
      // Commits without waiting for the WAL flush: writing the corpus is not the figure, and a
      // server crash costs at most the last moment's sessions (reads are unaffected).
      await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
      writeFileSync(file, JSON.stringify({ name }));
    }
    const url = new URL(server);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      fresh: !kept,
      async release() {
        if (!throwaway) return;
        const client = new pg.Client({ connectionString: server });
        await client.connect();
        try {
          await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        } finally {
          await client.end();
        }
      },
    };
  } finally {
    await admin.end();
  }
}
