/**
 * Loaded images (data URLs) by key, bounded by their total size: least recently used first out.
 * One per `Strand` (not module state), so a long reading session's images do not pile up without
 * end and two UIs in one page share nothing. A load still in flight costs nothing until it lands;
 * a failed load is forgotten, so the next view asks again. An image larger than the whole budget
 * is handed to its waiters but not kept.
 */
export class ImageCache {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  readonly #entries = new Map<string, { readonly url: Promise<string>; bytes: number }>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes held by loaded images. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** The image of `key`, loading it with `load` when it is not held (or in flight). */
  get(key: string, load: () => Promise<string>): Promise<string> {
    const held = this.#entries.get(key);
    if (held !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, held);
      return held.url;
    }
    const url = load();
    const entry = { url, bytes: 0 };
    this.#entries.set(key, entry);
    url.then(
      (loaded) => {
        if (this.#entries.get(key) !== entry) return;
        entry.bytes = loaded.length;
        this.#bytes += entry.bytes;
        this.#evict();
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return url;
  }

  /** Drops the least recently used loaded images until the total fits. */
  #evict(): void {
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) return;
      if (entry.bytes === 0) continue;
      this.#entries.delete(key);
      this.#bytes -= entry.bytes;
    }
  }
}
