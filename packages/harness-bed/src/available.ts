import { bedRoot, installedHarness, type InstalledHarness } from './install/install.js';
import { pinOf, type BedHarness } from './pins.js';

/** A pinned harness for a test suite, or why the suite is skipped. */
export type BedAvailability =
  | { readonly kind: 'installed'; readonly installed: InstalledHarness }
  | { readonly kind: 'missing'; readonly reason: string };

/**
 * The pinned harness when `npm run bed:install` put it in the bed's folder. Without it the bed's
 * suites are skipped, saying why — unless `STRAND_REQUIRE_BED=1` (set by `.ci/run`), which makes
 * a missing harness fail at once rather than pass by skipping.
 */
export function bedHarness(harness: BedHarness, env: NodeJS.ProcessEnv = process.env): BedAvailability {
  const pin = pinOf(harness);
  const root = bedRoot(env);
  const installed = installedHarness(pin, root);
  if (installed !== undefined) return { kind: 'installed', installed };
  const reason = `the harness bed: ${pin.package}@${pin.version} is not installed in ${root} (run \`npm run bed:install\`)`;
  if (env.STRAND_REQUIRE_BED === '1') throw new Error(`STRAND_REQUIRE_BED=1, but ${reason}`);
  return { kind: 'missing', reason };
}
