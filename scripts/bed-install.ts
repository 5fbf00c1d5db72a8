/**
 * `npm run bed:install`: installs the pinned harness CLIs (packages/harness-bed/src/pins.ts) into
 * the bed's folder (`STRAND_HARNESS_BED`, else ~/.cache/strand/harness-bed), all at once, and says
 * how long it took. Already installed pins cost nothing; npm's cache makes a reinstall cheap.
 */
import { bedRoot, installHarness, installedVersion, PINS } from '@strand/harness-bed';

const started = Date.now();
const root = bedRoot();
const results = await Promise.allSettled(
  PINS.map(async (pin) => {
    const t0 = Date.now();
    const installed = await installHarness(pin, root);
    const version = await installedVersion(installed);
    console.log(
      `  ${pin.package}@${version} (${((Date.now() - t0) / 1000).toFixed(1)} s): ${installed.args[0] ?? installed.command}`,
    );
  }),
);
const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
for (const failure of failed)
  console.error(`bed:install: ${String((failure.reason as Error).message ?? failure.reason)}`);
const minutes = (Date.now() - started) / 60_000;
console.log(
  `bed:install: ${PINS.length - failed.length} of ${PINS.length} harnesses in ${root} (${minutes.toFixed(2)} min)`,
);
process.exit(failed.length === 0 ? 0 : 1);
