/**
 * The soak's host: composed as `strand serve` composes it (the data-folder lock, the runtime over
 * the files store, the host on a port), but with the JSONL backend writing through a
 * fault-injecting fs — the runtime's test-only `wrapPersistence` option, which no `strand serve`
 * flag reaches. Arguments: the data folder, the port, the fault schedule (`formatSchedule`, may be
 * empty). Prints `{"rpcUrl":…}` once serving and `{"fault":…,"at":…}` as each fault strikes; on
 * SIGTERM it closes in order and releases the lock (SIGKILL is the other way it ends).
 */
import path from 'node:path';
import { acquireDataFolderLock } from '@strand/cli/data-lock';
import { startHost } from '@strand/host';
import { JsonlSessionPersistence } from '@strand/persistence';
import { openStrandRuntime } from '@strand/runtime';
import { faultInjectingFs, parseSchedule } from './fault-fs.js';

const [dataDir, port, scheduleText] = process.argv.slice(2) as [string, string, string | undefined];
const root = path.resolve(dataDir);
const say = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);
const fs = faultInjectingFs(parseSchedule(scheduleText ?? ''), (fault) =>
  say({ fault: fault.kind, at: fault.at }),
);
const lock = await acquireDataFolderLock(root, { command: 'soak', note: () => undefined });
const runtime = await openStrandRuntime({
  dataDir: root,
  wrapPersistence: () => new JsonlSessionPersistence(root, { root, fs }),
});
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
