/**
 * The host `npm run bench:scale` measures, in a process of its own so its RSS is the host's alone:
 * the runtime over the corpus's store (as `strand serve` opens it, with no start-up search sync:
 * the bench indexed the corpus itself) behind the real host. Prints `{"rpcUrl": …}` once serving;
 * closes when its stdin ends.
 *
 *   tsx bench/scale-host.ts <dataDir> <sqlite | postgres://…>
 */
import { startHost } from '@strand/host';
import { openStrandRuntime } from '@strand/runtime';

const [dataDir, store] = process.argv.slice(2);
if (dataDir === undefined || store === undefined)
  throw new Error('usage: scale-host.ts <dataDir> <sqlite | url>');
const runtime = await openStrandRuntime({
  dataDir,
  ...(store === 'sqlite' ? { backend: 'sqlite' as const } : { store }),
  syncSearch: false,
});
// Every row was built with its hints: nothing is left to fold before the figures are taken.
await runtime.listReady;
const host = await startHost({ services: runtime.services, port: 0 });
console.log(JSON.stringify({ rpcUrl: host.rpcUrl }));
process.stdin.resume();
process.stdin.once('end', () => {
  void host
    .close()
    .then(() => runtime.close())
    .then(() => process.exit(0));
});
