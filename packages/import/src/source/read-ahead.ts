import { readFile } from 'node:fs';

/** A file's bytes, or why they could not be read. */
export type AheadRead =
  | { readonly file: string; readonly bytes: Buffer }
  | { readonly file: string; readonly error: Error };

/** Files being read at once: enough to keep libuv's thread pool busy, few enough to bound memory. */
const WINDOW = 64;

/**
 * The bytes of many small files, in the order given, read up to `window` at a time.
 *
 * For a store kept as a file per record (OpenHands's `events/<n>.json`, thousands of files of a
 * few hundred bytes): read one after another, each read waits for its open, stat, read and close
 * to go round the thread pool in turn, and a conversation costs ~150 µs a file; read ahead, those
 * round trips overlap (~40 µs a file). The callback `readFile`, not `fs/promises`: its
 * `FileHandle` costs a promise per step, the callback form does the same steps for less.
 */
export async function* readAhead(files: readonly string[], window = WINDOW): AsyncGenerator<AheadRead> {
  const read = (file: string): Promise<AheadRead> =>
    new Promise((resolve) => {
      readFile(file, (error, bytes) => resolve(error === null ? { file, bytes } : { file, error }));
    });
  const inFlight: Promise<AheadRead>[] = [];
  let next = 0;
  while (next < files.length && inFlight.length < window) inFlight.push(read(files[next++]!));
  while (inFlight.length > 0) {
    const done = await inFlight.shift()!;
    if (next < files.length) inFlight.push(read(files[next++]!));
    yield done;
  }
}
