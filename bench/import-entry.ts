/**
 * `bench:import`'s entry into the CLI bundle (built beside it by `bundleCli`, see import.bench.ts):
 * the one-shot import exactly as `strand import` runs it — worker lanes from the bundle, the
 * projection cache rows included — without the process start-up a re-import would otherwise be
 * mostly made of.
 */
export { importOnce } from '../packages/cli/src/commands/import.js';
