/**
 * Runs every transcript of a folder through one `WorkerLane` (argv: harness, source, data, and
 * optionally a session digest module's URL) and prints the outcomes as one JSON line. Worker threads need a process with a TypeScript loader a
 * worker can register, so tests start this script with `node --import tsx`.
 */
import type { FileOutcome, FileTask } from '../run/process-file.js';
import { QueueCursor } from '../run/queue-cursor.js';
import { peekedSessions, startWorker } from './worker-child.js';

const [harness, source, data, digestModule] = process.argv.slice(2) as [string, string, string, string?];
const { importer, lane } = await startWorker(harness, data, digestModule);
const tasks: FileTask[] = (await peekedSessions(importer, source)).map(({ unit, peek }) => ({
  unit,
  peek,
  companions: unit.companions,
}));
// One file at a time, so the outcomes come in the files' order.
const outcomes: FileOutcome[] = [];
const died = await lane.drain(tasks, QueueCursor.create(tasks.length), 1, (index, outcome) => {
  outcomes[index] = outcome;
});
if (died !== undefined) throw new Error(died);
await lane.close();
console.log(JSON.stringify(outcomes));
