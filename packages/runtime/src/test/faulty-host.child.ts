/**
 * A whole host whose writer meets one injected fault, in its own process so the parent can
 * SIGKILL it in the window the fault holds open. Arguments: the data folder, then `<fault>@<n>`
 * (`hang@3`: the third append never settles and writes nothing; `write-then-hang@3`: it is
 * written durably and never acknowledged). Prints one JSON line `{"rpcUrl":…}` when serving and
 * `{"fault":…,"ordinal":…,"session":…}` once the fault has happened.
 */
import { FaultyPersistence, type AppendFault } from '@strand/test-support';
import { startHost } from '@strand/host';
import { openStrandRuntime } from '../strand-runtime.js';

const [dataDir, spec] = process.argv.slice(2) as [string, string];
const [fault, at] = spec.split('@') as [AppendFault, string];
const runtime = await openStrandRuntime({
  dataDir,
  syncSearch: false,
  wrapPersistence: (inner) =>
    new FaultyPersistence(
      inner,
      (ordinal) => (ordinal === Number(at) ? fault : undefined),
      (happened, ordinal, id) =>
        process.stdout.write(`${JSON.stringify({ fault: happened, ordinal, session: id })}\n`),
    ),
});
const host = await startHost({ services: runtime.services });
process.stdout.write(`${JSON.stringify({ rpcUrl: host.rpcUrl })}\n`);
// Serve until killed.
setInterval(() => undefined, 60_000);
