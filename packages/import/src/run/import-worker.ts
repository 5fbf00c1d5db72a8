/**
 * Worker-thread entry of a lane (see `lanes.ts`): says ready, then maps and writes the files it
 * is sent to the data folder, answering each with its outcome.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { importerFor } from '../harnesses.js';
import type { WorkerInit } from './lanes.js';
import { DataFolder } from './data-folder.js';
import { processFile, type FileTask } from './process-file.js';
import { loadDigest } from './session-digest.js';

const init = workerData as WorkerInit;
const port = parentPort!;
const importer = importerFor(init.harness);
// Prepared by the coordinating thread; this lane must not sweep it again.
const folder = new DataFolder(init.dataDir, init.compression, init.stored);
// A digest module that cannot load fails the boot: the lane is given up, the other lanes carry on.
const digest = init.digestModule === undefined ? undefined : await loadDigest(init.digestModule);
port.postMessage({ ready: true });

port.on('message', (message: { id: number; type: 'task' | 'close'; task?: FileTask }) => {
  void handle(message).then(
    (reply) => port.postMessage({ id: message.id, ...reply }),
    (error: unknown) =>
      port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});

async function handle(message: { type: 'task' | 'close'; task?: FileTask }): Promise<object> {
  switch (message.type) {
    case 'task':
      return { outcome: await processFile(importer, message.task!, folder, digest) };
    case 'close':
      return {};
    default: {
      const exhaustive: never = message.type;
      return exhaustive;
    }
  }
}
