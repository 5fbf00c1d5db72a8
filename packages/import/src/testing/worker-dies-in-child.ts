/**
 * Runs every transcript of a folder through `runQueue` on a worker lane that dies with its first
 * file in flight, beside this thread's lane, which starts taking files only once the worker died
 * (so the worker surely takes one). argv: harness, source, data, and the digest probe's URL (set
 * to exit in a worker). Prints each file's outcome, in the files' order, as one JSON line.
 */
import { inProcessLane, type Lane } from '../run/lanes.js';
import type { FileOutcome } from '../run/process-file.js';
import { runQueue, type Changed } from '../run/schedule.js';
import { loadDigest } from '../run/session-digest.js';
import { peekedSessions, startWorker } from './worker-child.js';

const [harness, source, data, probe] = process.argv.slice(2) as [string, string, string, string];
process.env.STRAND_PROBE_WORKER_EXITS = '1';
const { importer, folder, lane: worker } = await startWorker(harness, data, probe);
const queue = (await peekedSessions(importer, source)).map(
  ({ unit, peek }) => ({ unit, peek, stamps: { companions: [] } }) as unknown as Changed,
);
let workerDied!: () => void;
const died = new Promise<void>((resolve) => (workerDied = resolve));
const dying: Lane = {
  drain: async (...args) => {
    const why = await worker.drain(...args);
    workerDied();
    return why;
  },
  close: () => worker.close(),
};
const main = inProcessLane(importer, folder, await loadDigest(probe));
const waiting: Lane = {
  drain: async (...args) => {
    await died;
    return main.drain(...args);
  },
  close: () => main.close(),
};
const outcomes = new Map<string, FileOutcome[]>();
await runQueue(queue, [Promise.resolve(dying), Promise.resolve(waiting)], 1, (task, outcome) =>
  outcomes.set(task.unit.file, [...(outcomes.get(task.unit.file) ?? []), outcome]),
);
await worker.close();
console.log(
  JSON.stringify(queue.map((c) => ({ file: c.unit.file, outcomes: outcomes.get(c.unit.file) ?? [] }))),
);
