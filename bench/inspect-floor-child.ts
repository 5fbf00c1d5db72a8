/**
 * Fresh process for the cold-inspect figure: times `inspect` of one session and its floor (the
 * same bytes read, decompressed and `JSON.parse`d per line), each the median of `runs`, in this one
 * process, which holds nothing else. Measured in the process that has just written the log, both
 * pay garbage collection for its 100k-event heap, so their ratio compares unlike with unlike; here
 * they run side by side on an empty heap. Prints `{inspectMs, floorMs}` as JSON.
 */
import path from 'node:path';
import { SessionId } from '@strand/session';
import { openBackend } from './backends.js';
import { medianMs } from './bench-util.js';
import { jsonlFloor, sqliteFloor } from './persistence-floor.js';

const [backend, root, id, runs] = process.argv.slice(2) as [string, string, string, string];
const persistence = await openBackend(backend, root);
const inspectMs = await medianMs(Number(runs), () => persistence.inspect(SessionId(id)));
await persistence.close();
const floorMs = await medianMs(Number(runs), () =>
  backend === 'jsonl'
    ? jsonlFloor(path.join(root, 'sessions', `${id}.zst`))
    : sqliteFloor(path.join(root, 'strand.db'), id),
);
console.log(JSON.stringify({ inspectMs, floorMs }));
