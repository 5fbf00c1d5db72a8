/**
 * The writer half of the cache crash test: a whole runtime (persistence, cache write policy,
 * agent controller) running turns as fast as it can until the parent SIGKILLs it. Prints
 * `ready` once turns are under way.
 */
import { openStrandRuntime } from '../strand-runtime.js';

const [dataDir] = process.argv.slice(2) as [string];
const runtime = await openStrandRuntime({ dataDir, syncSearch: false });
const lease = await runtime.agents.create({ cwd: '/tmp' });
const id = lease.agent.id;
process.stdout.write('ready\n');
for (let n = 0; ; n++) {
  const { outcome } = await runtime.agents.prompt(id, `turn ${n}: write a summary of the work so far`);
  await outcome;
}
