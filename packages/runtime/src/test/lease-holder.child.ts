/**
 * Host A of the lease-takeover test, in its own process so it can really die: a whole runtime on
 * the shared database that creates a session, runs a turn on it and keeps its agent attached
 * (holding the session's lease, renewed every ttl/3) until the parent SIGKILLs it. Prints
 * `ready <session id> <lease owner>` once the lease is held and the session's list row committed.
 */
import { PostgresProjectionCache } from '@strand/postgres';
import { openStrandRuntime } from '../strand-runtime.js';

const [dataDir, store, ttl] = process.argv.slice(2) as [string, string, string];
const runtime = await openStrandRuntime({ dataDir, store, leaseTtlMs: Number(ttl), syncSearch: false });
const lease = await runtime.agents.create({ cwd: '/tmp/host-a' });
await lease.agent.prompt('work started on host A');
// Its list row is written behind: committed before the parent lists the session from host B.
if (runtime.services.cache instanceof PostgresProjectionCache) await runtime.services.cache.drain();
process.stdout.write(`ready ${lease.agent.id} ${runtime.coordination!.leases.owner}\n`);
// Keep the process (and the lease's renewal timer) alive until killed.
setInterval(() => undefined, 60_000);
