import { readFile } from 'node:fs';

/** A file's bytes, or why they could not be read. */
export type AheadRead =
  | { readonly file: string; readonly bytes: Buffer }
  | { readonly file: string; readonly error: Error };

/** Operations in flight at once: enough to keep libuv's thread pool busy, few enough to bound memory. */
const WINDOW = 64;

/**
 * `work` of every item, in the order given, up to `window` started ahead of the one awaited.
 * `work` must not reject (a rejection would surface only when its turn comes): fold errors into
 * the result.
 *
 * For file-system work on many small files: done one after another, each waits for its system
 * calls to go round the thread pool in turn; started ahead, those round trips overlap.
 */
export async function* ahead<T, R>(
  items: readonly T[],
  work: (item: T) => Promise<R>,
  window = WINDOW,
): AsyncGenerator<R> {
  const inFlight: Promise<R>[] = [];
  let next = 0;
  while (next < items.length && inFlight.length < window) inFlight.push(work(items[next++]!));
  while (inFlight.length > 0) {
    const done = await inFlight.shift()!;
    if (next < items.length) inFlight.push(work(items[next++]!));
    yield done;
  }
}

/**
 * The bytes of many small files, in the order given, read up to `window` at a time.
 *
 * For a store kept as a file per record (OpenHands's `events/<n>.json`, thousands of files of a
 * few hundred bytes): read one after another, a conversation cost ~350 µs a file; read ahead,
 * ~70 µs. The callback `readFile`, not `fs/promises`: its `FileHandle` costs a promise per step
 * (open, stat, read, close), the callback form does the same steps for less.
 */
export function readAhead(files: readonly string[], window = WINDOW): AsyncGenerator<AheadRead> {
  return ahead(
    files,
    (file) =>
      new Promise<AheadRead>((resolve) => {
        readFile(file, (error, bytes) => resolve(error === null ? { file, bytes } : { file, error }));
      }),
    window,
  );
}
