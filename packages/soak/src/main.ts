/**
 * `npm run soak -- --minutes N --seed S [--store files|postgres]` (docs/soak.md). Prints progress,
 * then, when a promise is broken, the seed and the first broken promise; its last line is the
 * summary as one JSON object (`{"postgres": {…}}` with `--store postgres`, which runs two hosts on a
 * fresh database of the `STRAND_TEST_PG_URL` server: `bash scripts/with-postgres.sh npm run soak …`).
 * Exits 1 when anything was lost, a refusal was undocumented, a lock was left, a session did not
 * reopen, or fewer than three faults struck; 2 on bad arguments.
 */
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { runSoak } from './soak.js';
import { runPostgresSoak } from './soak-postgres.js';

function usage(message: string): never {
  process.stderr.write(
    `soak: ${message}\nusage: npm run soak -- [--minutes N] [--seed S] [--store files|postgres] [--keep-data]\n`,
  );
  process.exit(2);
}

let values: { minutes?: string; seed?: string; store?: string; 'keep-data'?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      minutes: { type: 'string' },
      seed: { type: 'string' },
      store: { type: 'string' },
      'keep-data': { type: 'boolean' },
    },
    strict: true,
  }));
} catch (error) {
  usage((error as Error).message);
}
const minutes = Number(values.minutes ?? '2');
if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 24 * 60)
  usage('--minutes must be a positive number');
// The one draw outside the PRNG: a seed when none is given, printed so the run replays.
const seed = values.seed === undefined ? randomInt(2 ** 31 - 1) : Number(values.seed);
if (!Number.isSafeInteger(seed) || seed < 0 || seed >= 2 ** 31)
  usage('--seed must be an integer 0 … 2^31 − 1');

const store = values.store ?? 'files';
if (store !== 'files' && store !== 'postgres') usage('--store must be files or postgres');
if (store === 'postgres' && !process.env.STRAND_TEST_PG_URL)
  usage('--store postgres needs STRAND_TEST_PG_URL (run it under bash scripts/with-postgres.sh)');

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const keepData = values['keep-data'] === true;
const result =
  store === 'files'
    ? await runSoak({ minutes, seed, log, keepData }).then((run) => ({ ...run, kept: run.dataDir }))
    : await runPostgresSoak({ minutes, seed, log, keepData }).then((run) => ({
        ...run,
        summary: { postgres: run.summary },
      }));
if (result.failure !== undefined) {
  log(
    `soak FAILED (seed ${seed}; replay: npm run soak -- --minutes ${minutes} --seed ${seed} --store ${store}): ${result.failure}`,
  );
  log(`soak: kept for a post-mortem: ${result.kept}`);
}
process.stdout.write(`${JSON.stringify(result.summary)}\n`);
process.exit(result.failure === undefined ? 0 : 1);
