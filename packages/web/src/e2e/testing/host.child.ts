/**
 * A whole host in its own process, so the browser test can really kill it (SIGKILL, no graceful
 * close): a runtime on `dataDir` and a host serving `webRoot` on `port` (0: any free one). Prints
 * `ready <url> <port>` once it accepts connections, then runs until killed.
 */
import { startHost } from '@strand/host';
import { openStrandRuntime } from '@strand/runtime';

const [dataDir, webRoot, port] = process.argv.slice(2) as [string, string, string];
const runtime = await openStrandRuntime({ dataDir });
const host = await startHost({ services: runtime.services, port: Number(port), webRoot });
await runtime.searchReady;
process.stdout.write(`ready ${host.url} ${host.port}\n`);
