// A scan worker that dies on its first request: the client must answer undefined, never hang.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => process.exit(3));
