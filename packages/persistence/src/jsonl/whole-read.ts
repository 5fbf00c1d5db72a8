import { defined } from '@strand/session';
import { promises as fsp } from 'node:fs';
import { throwIfAborted } from '../errors.js';
import { decodePlainLog, decodeZstdLog, type DecodedLog } from './log-decoder.js';
import type { Located } from './session-files.js';
import { storageError } from './storage-error.js';
import { STREAMED_DECODE_MIN_BYTES, decodeZstdLogStreamed } from './streamed-decode.js';

export interface WholeRead {
  readonly decoded: DecodedLog;
  readonly size: bigint;
  readonly mtimeNs: bigint;
}

/**
 * Reads and decodes a whole log. A large clean `.zst` log is streamed (never held whole); the
 * streamed decoder takes only the well-formed path and declines anything unusual, which then
 * goes to the one exact decoder (`decodeZstdLog`, or `decodePlainLog` for `.jsonl`), so every
 * damaged log is judged, classified and located in one place. `keepFrom` (plain logs only)
 * validates every line but returns only the events with seq >= `keepFrom`; `dataTypes` lets the
 * streamed path elide the data of other types (a scan).
 */
export async function readWhole(
  id: string,
  located: Located,
  signal: AbortSignal | undefined,
  keepFrom = 0,
  dataTypes?: ReadonlySet<string>,
): Promise<WholeRead> {
  throwIfAborted(signal, id);
  let buf: Buffer | undefined;
  let streamed: DecodedLog | undefined;
  let size: bigint;
  let mtimeNs: bigint;
  try {
    const handle = await fsp.open(located.file, 'r');
    try {
      const stat = await handle.stat({ bigint: true });
      size = stat.size;
      mtimeNs = stat.mtimeNs;
      if (located.compressed && keepFrom === 0 && size >= STREAMED_DECODE_MIN_BYTES)
        streamed = await decodeZstdLogStreamed(handle, Number(size), id, signal, dataTypes);
      if (streamed === undefined) buf = await handle.readFile(defined({ signal }));
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw storageError(error, id);
  }
  throwIfAborted(signal, id);
  const decoded =
    streamed ?? (located.compressed ? decodeZstdLog(buf!, id) : decodePlainLog(buf!, id, keepFrom));
  return { decoded, size, mtimeNs };
}
