/**
 * Many pieces of one long text (an export's lines or rows), joined a few hundred kilobytes at a
 * time as they come: `join(separator)` is `pieces.join(separator)`, byte for byte. Held whole until
 * the end, tens of thousands of small strings are copied by every young-generation collection they
 * survive; joined early, each piece dies young and each chunk is one string large enough to be
 * allocated where collections do not move it. An export's rendering spent a fifth of its time
 * in such copying.
 */
export class TextChunks {
  readonly #separator: string;
  readonly #chunks: string[] = [];
  #batch: string[] = [];
  #batchLength = 0;

  constructor(separator: string) {
    this.#separator = separator;
  }

  push(piece: string): void {
    this.#batch.push(piece);
    this.#batchLength += piece.length;
    if (this.#batchLength >= CHUNK) this.#close();
  }

  /** The pieces so far in one string, each separated from the next by the separator. */
  join(): string {
    return this.chunks().join(this.#separator);
  }

  /** The pieces so far as chunks of consecutive pieces, each chunk joined by the separator. */
  chunks(): readonly string[] {
    this.#close();
    return this.#chunks;
  }

  #close(): void {
    if (this.#batch.length === 0) return;
    this.#chunks.push(this.#batch.join(this.#separator));
    this.#batch = [];
    this.#batchLength = 0;
  }
}

/** UTF-16 units per chunk: past the size V8 allocates in its own space (128 KiB), never moved. */
const CHUNK = 1 << 18;

/**
 * The lines of a JSONL export as `sealExport` takes them (each element followed by a line end):
 * the first line alone (it carries the marker; the digest covers what follows it), then the rest
 * in `TextChunks`' chunks of lines, which `sealExport` ends the same way.
 */
export class ExportLines {
  #first: string | undefined;
  readonly #rest = new TextChunks('\n');

  get empty(): boolean {
    return this.#first === undefined;
  }

  push(line: string): void {
    if (this.#first === undefined) this.#first = line;
    else this.#rest.push(line);
  }

  /** For `sealExport`: the first line, then the rest in chunks. */
  lines(): string[] {
    return this.#first === undefined ? [] : [this.#first, ...this.#rest.chunks()];
  }
}
