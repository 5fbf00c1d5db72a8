// A scan worker that says it is ready, then dies on its first request: the client must answer
// undefined, never hang.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => process.exit(3));
parentPort.postMessage({ ready: true });
