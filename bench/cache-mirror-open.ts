/**
 * npm run bench:cache-mirror -- [--sessions N] [--module PATH]…
 *
 * Issue 41: what the PostgreSQL projection cache costs a host at open over a corpus whose sessions
 * all have cache rows. Fills `projection_cache_rows` with N sessions (default 100,000), each with
 * the rows the built-in units write for one standard-workload turn (copied in SQL), then opens the
 * cache in a child process (`cache-mirror-open-child.ts`, `--expose-gc`) and reports its open time,
 * its RSS and heap after open, and one list page's reads (prefetch + 200 `cachedSnapshot`s).
 * `--module` opens another build of `postgres-cache.ts` (e.g. a copy of the version before the
 * bounded mirror) for a before/after in one run. The machine is shared: compare ratios within one
 * run. Last line: one JSON object.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPostgresProjectionCache } from '@strand/postgres';
import { createTestDatabase, sqlOnce } from '@strand/postgres/testing';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { newSessionHeader, SessionId, SessionLogOffset } from '@strand/session';
import { workloadEvents, workloadSession } from '@strand/workload';
import { line } from './bench-util.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const sessions = Number(option('--sessions') ?? 100_000);
const modules = args.flatMap((arg, i) => (args[i - 1] === '--module' ? [path.resolve(arg)] : []));
if (modules.length === 0) modules.push(path.join(here, '../packages/postgres/src/cache/postgres-cache.ts'));

const db = await createTestDatabase();
try {
  // One session's rows, written through the cache itself, then copied to N ids in SQL.
  const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
  const header = newSessionHeader({ id: SessionId('seed'), createdAt: 1_700_000_000_000 });
  const events = workloadEvents(workloadSession(0, 40));
  const cache = await openPostgresProjectionCache({ url: db.url, registry });
  cache.put({ header, incarnation: 'inc-1' }, SessionLogOffset(0), registry.foldAll(header, events).rows);
  await cache.closeAsync();
  await sqlOnce(
    db.url,
    `INSERT INTO projection_cache_rows
     SELECT 's' || lpad(n::text, 7, '0'), incarnation, inherited_cut, key, state_version, cut, state
     FROM projection_cache_rows, generate_series(0, $1 - 1) AS n WHERE session_id = 'seed'`,
    [sessions],
  );
  // What autovacuum would have done by now on a real database: the planner knows the table's size.
  await sqlOnce(db.url, 'ANALYZE projection_cache_rows');
  const plan = await sqlOnce(
    db.url,
    "EXPLAIN SELECT * FROM projection_cache_rows WHERE session_id = ANY(ARRAY['s0000001', 's0050000'])",
  );
  console.log(`a load's plan: ${(plan.rows[0] as { 'QUERY PLAN': string })['QUERY PLAN']}`);
  const stats = await sqlOnce(
    db.url,
    'SELECT count(*) AS rows, sum(length(state)) AS bytes FROM projection_cache_rows',
  );
  const { rows, bytes } = stats.rows[0] as { rows: string; bytes: string };
  console.log(
    `cache mirror at open: ${sessions} sessions, ${rows} rows, ${Math.round(Number(bytes) / 1e6)} MB of states`,
  );
  const results: Record<string, unknown>[] = [];
  for (const module of modules) {
    const out = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        path.join(here, 'cache-mirror-open-child.ts'),
        module,
        db.url,
        String(sessions),
      ],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    const result = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>;
    results.push({ module: path.relative(process.cwd(), module), ...result });
    for (const [key, value] of Object.entries(result))
      line(`${path.basename(path.dirname(module))} ${key}`, String(value));
  }
  console.log(JSON.stringify({ sessions, rows: Number(rows), stateBytes: Number(bytes), results }));
} finally {
  await db.drop();
}
