import { parentPort } from 'node:worker_threads';
import { scanFileForTransfer, type ScanTransfer } from './scan-file.js';

/** A request to the scan worker. */
export interface ScanRequest {
  readonly id: number;
  readonly file: string;
  readonly dataTypes: readonly string[];
}

/** Its reply: the transfer, or null when the caller must read the log itself. */
export interface ScanReply {
  readonly id: number;
  readonly transfer: ScanTransfer | null;
}

/** What the worker sends: `{ ready: true }` once, when loaded, then one reply per request. */
export type WorkerMessage = ScanReply | { readonly ready: true };

// One request at a time, in arrival order: the worker is the second core, the main thread the first.
parentPort?.on('message', (request: ScanRequest) => {
  let transfer: ScanTransfer | null = null;
  try {
    transfer = scanFileForTransfer(request.file, new Set(request.dataTypes)) ?? null;
  } catch {
    // I/O errors, a vanished file: the caller's own read reports them properly.
  }
  const reply: ScanReply = { id: request.id, transfer };
  const buffers = transfer?.kept === null || transfer === null ? [] : [transfer.kept];
  parentPort!.postMessage(reply, buffers);
});

// Loaded: scans may come now (until this, the client reads logs itself rather than wait).
parentPort?.postMessage({ ready: true } satisfies WorkerMessage);
