import { createHash } from 'node:crypto';
import type { Attachment } from '@strand/persistence';

export type ContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly ref: string };

/**
 * Images found in one transcript, keyed by the ref their content block names. The ref is the
 * SHA-256 of the bytes — the same content address the JSONL persistence assigns — so mapping a
 * transcript twice yields identical events, which the prefix comparison of re-imports relies on.
 */
export class AttachmentSink {
  readonly #items = new Map<string, Attachment>();

  get items(): ReadonlyMap<string, Attachment> {
    return this.#items;
  }

  /** An image block for base64 data, or a text placeholder when the data is unusable. */
  image(base64: string, mediaType: string): ContentBlock {
    const bytes = Buffer.from(base64, 'base64');
    if (bytes.length === 0) return { type: 'text', text: `[image: ${mediaType}, no data]` };
    const ref = createHash('sha256').update(bytes).digest('hex');
    this.#items.set(ref, { bytes, mediaType });
    return { type: 'image', ref };
  }

  /** An image block for a `data:` URL; other URLs become a text placeholder naming them. */
  imageUrl(url: string): ContentBlock {
    const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
    if (match === null)
      return { type: 'text', text: `[image: ${url.length > 200 ? `${url.slice(0, 200)}…` : url}]` };
    return this.image(match[2]!, match[1]!);
  }
}

/** Message content in its smallest form: one string for plain text, blocks otherwise. */
export function toContent(blocks: readonly ContentBlock[]): string | readonly ContentBlock[] {
  if (blocks.every((b) => b.type === 'text'))
    return blocks.map((b) => (b as { text: string }).text).join('\n\n');
  return blocks;
}
