/**
 * Worker-thread entry of a lane (see `lanes.ts`): says ready, is told the ids the prepared data
 * folder holds, then maps and writes the files it is sent to that folder, answering each with its
 * outcome.
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
// Prepared by the coordinating thread, which sends its stored ids before any file; this lane must
// not sweep it again.
let folder: DataFolder | undefined;
// A digest module that cannot load fails the boot: the lane is given up, the other lanes carry on.
const digest = init.digestModule === undefined ? undefined : await loadDigest(init.digestModule);
port.postMessage({ ready: true });

type Message =
  | { type: 'folder'; stored: readonly string[] }
  | { id: number; type: 'task' | 'close'; task?: FileTask };

port.on('message', (message: Message) => {
  if (message.type === 'folder') {
    folder = new DataFolder(init.dataDir, init.compression, message.stored);
    return;
  }
  void handle(message).then(
    (reply) => port.postMessage({ id: message.id, ...reply }),
    (error: unknown) =>
      port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});

async function handle(message: { type: 'task' | 'close'; task?: FileTask }): Promise<object> {
  switch (message.type) {
    case 'task':
      if (folder === undefined) throw new Error('import worker was given a file before its data folder');
      return { outcome: await processFile(importer, message.task!, folder, digest) };
    case 'close':
      return {};
    default: {
      const exhaustive: never = message.type;
      return exhaustive;
    }
  }
}
