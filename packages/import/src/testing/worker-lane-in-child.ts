/**
 * Runs every transcript of a folder through one `WorkerLane` (argv: harness, source, data, and
 * optionally a session digest module's URL) and prints the outcomes as one JSON line. Worker threads need a process with a TypeScript loader a
 * worker can register, so tests start this script with `node --import tsx`.
 */
import { importerFor } from '../harnesses.js';
import { WorkerLane } from '../run/lanes.js';
import type { FileOutcome, FileTask } from '../run/process-file.js';
import { QueueCursor } from '../run/queue-cursor.js';
import { DataFolder } from '../run/data-folder.js';
import { isHarness } from '../types.js';

const [harness, source, data, digestModule] = process.argv.slice(2) as [string, string, string, string?];
if (!isHarness(harness)) throw new Error(`unknown harness ${harness}`);
const importer = importerFor(harness);
const folder = new DataFolder(data, 'zstd');
// As the coordinating thread does: the worker loads while the folder is prepared.
const lane = await WorkerLane.start(
  {
    harness,
    dataDir: data,
    compression: 'zstd',
    ...(digestModule === undefined ? {} : { digestModule }),
  },
  folder.prepare().then(() => folder.stored),
);
if (lane === undefined) throw new Error('worker lane did not start');
const tasks: FileTask[] = [];
for (const unit of await importer.discover(source)) {
  const peek = await importer.peek(unit);
  if (peek.kind === 'session') tasks.push({ unit, peek, companions: unit.companions });
}
// One file at a time, so the outcomes come in the files' order.
const outcomes: FileOutcome[] = [];
const died = await lane.drain(tasks, QueueCursor.create(tasks.length), 1, (index, outcome) => {
  outcomes[index] = outcome;
});
if (died !== undefined) throw new Error(died);
await lane.close();
console.log(JSON.stringify(outcomes));
