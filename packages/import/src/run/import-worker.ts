/**
 * Worker-thread entry of a lane (see `lanes.ts`): says ready, is told the ids the prepared data
 * folder holds, then maps and writes the files it takes from the run's queue to that folder,
 * answering with each file's outcome as it finishes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { importerFor } from '../harnesses.js';
import { threadLane, type WorkerInit, type WorkerMessage, type WorkerReply } from './lanes.js';
import { DataFolder } from './data-folder.js';
import { failedOutcome, processFile } from './process-file.js';
import { QueueCursor } from './queue-cursor.js';
import { loadDigest } from './session-digest.js';

const init = workerData as WorkerInit;
const port = parentPort!;
const reply = (message: WorkerReply): void => port.postMessage(message);
const importer = importerFor(init.harness);
// Prepared by the coordinating thread, which sends its stored ids before any file; this lane must
// not sweep it again.
let folder: DataFolder | undefined;
// A digest module that cannot load fails the boot: the lane is given up, the other lanes carry on.
const digest = init.digestModule === undefined ? undefined : await loadDigest(init.digestModule);
reply({ ready: true });

const lane = threadLane(async (task) => {
  if (folder === undefined)
    return failedOutcome(task, 'import worker was given a file before its data folder');
  // processFile throws only for what is not the file's own problem; that still fails only this file.
  return processFile(importer, task, folder, digest).catch((error: unknown) =>
    failedOutcome(task, error instanceof Error ? error.message : String(error)),
  );
});

port.on('message', (message: WorkerMessage) => {
  switch (message.type) {
    case 'folder':
      folder = new DataFolder(init.dataDir, init.compression, message.stored);
      return;
    case 'drain': {
      const { id, queue, cursor, slots } = message;
      void lane
        .drain(queue, QueueCursor.attach(cursor), slots, (index, outcome) => reply({ id, index, outcome }))
        .then(() => reply({ id, drained: true }));
      return;
    }
    case 'close':
      reply({ id: message.id, closed: true });
      return;
    default: {
      const exhaustive: never = message;
      return exhaustive;
    }
  }
});
