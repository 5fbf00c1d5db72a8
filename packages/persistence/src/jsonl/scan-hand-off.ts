import { promises as fsp } from 'node:fs';
import { throwIfAborted } from '../errors.js';
import { decodedFromTransfer } from './scan-worker/from-transfer.js';
import type { ScanWorkerClient } from './scan-worker/scan-worker-client.js';
import type { Located } from './session-files.js';
import { STREAMED_DECODE_MIN_BYTES } from './streamed-decode.js';
import type { WholeRead } from './whole-read.js';

/** Above this stored size a scan streams on this thread instead: the worker holds a log whole. */
export const SCAN_WORKER_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A scan through the worker thread, for a `.zst` log large enough to be worth the hand-off and
 * small enough to hold whole there. Undefined whenever the worker is off, declines, or anything
 * does not add up (even a failed `stat`): the caller then reads the log on this thread, which
 * judges any damage and reports any storage failure. So the worker can never fail a scan.
 */
export async function offloadedScan(
  worker: ScanWorkerClient | undefined,
  id: string,
  located: Located,
  dataTypes: ReadonlySet<string>,
  signal: AbortSignal | undefined,
): Promise<WholeRead | undefined> {
  if (!located.compressed || worker === undefined) return undefined;
  const size = await fsp.stat(located.file).then(
    (stat) => stat.size,
    () => undefined, // the read on this thread reports what is wrong with the file
  );
  if (size === undefined || size < STREAMED_DECODE_MIN_BYTES || size > SCAN_WORKER_MAX_BYTES)
    return undefined;
  const transfer = await worker.scan(located.file, dataTypes);
  throwIfAborted(signal, id);
  const decoded = transfer === undefined ? undefined : decodedFromTransfer(transfer, id);
  if (transfer === undefined || decoded === undefined) return undefined;
  return { decoded, size: BigInt(transfer.size), mtimeNs: BigInt(transfer.mtimeNs) };
}
