import type { LineReadEnd, SourceLine } from '../source/line-reader.js';
import { SourceLineReader } from '../source/line-reader.js';
import type { MappedFile } from './session-plan.js';

/**
 * A harness mapping as a fold over a file's lines: the state a one-shot map keeps between lines,
 * kept between reads instead, so live ingest feeds it only the lines appended since the last read.
 * The prefix law (`TranscriptBuilder`) is what makes that exact: the events of the lines fed so
 * far are a prefix of the events of the whole file, so `result()` after more lines only extends
 * what an earlier `result()` returned.
 */
export interface TranscriptFold {
  /**
   * Feeds the next line of the file; lines come in file order, each once. A fold that needs no
   * I/O for a line returns nothing: a million short lines then cost no promise and no turn of the
   * microtask queue each.
   */
  feed(line: SourceLine): void | Promise<void>;
  /**
   * What the lines fed so far map to. Changes nothing a later `feed` depends on (it may be called
   * after every read). Event arrays may be shared with the fold: read them before the next `feed`.
   */
  result(end: LineReadEnd): Promise<MappedFile>;
}

/** The one-shot mapping: every line of the file through a fresh fold. */
export async function mapWholeFile(
  file: string,
  compressed: boolean,
  fold: TranscriptFold,
): Promise<MappedFile> {
  const reader = new SourceLineReader(file, compressed);
  for await (const lines of reader.chunkLines())
    for (const line of lines) {
      const pending = fold.feed(line);
      if (pending !== undefined) await pending;
    }
  return fold.result(reader.end!);
}
