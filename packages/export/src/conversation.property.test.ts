import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationOf, plainText, type ConversationContent } from './conversation.js';
import type { ExportAttachment } from './document.js';
import { documentOf } from './test-document.js';

/**
 * How a message's images go into the conversation the harness writers render: an image is
 * carried exactly when its bytes are there and of a type every target takes; the rest reads as
 * before images were carried (named in the text, counted in `leftOut`).
 */

const block = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text: fc.string({ maxLength: 8 }) }),
  fc.record({ type: fc.constant('image' as const), ref: fc.constantFrom('a', 'b', 'c', 'd') }),
);
const content = fc.array(block, { maxLength: 6 });
/** Some refs stored, of a type a target takes or not. */
const attachments = fc
  .dictionary(
    fc.constantFrom('a', 'b', 'c', 'd'),
    fc.record({
      mediaType: fc.constantFrom(
        'image/png',
        'image/jpeg',
        'image/gif',
        'image/webp',
        'image/svg+xml',
        'text/plain',
      ),
      base64: fc.base64String({ minLength: 4, maxLength: 12 }),
    }),
  )
  .map((found) => new Map<string, ExportAttachment>(Object.entries(found)));

const TAKEN = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The conversation of one prompt and one call whose result holds `blocks`. */
function both(
  blocks: readonly unknown[],
  found: ReadonlyMap<string, ExportAttachment>,
  resultImages: boolean,
) {
  const document = {
    ...documentOf([
      ['user/message', { content: blocks, author: 'human' }],
      ['tool/call', { callId: 'c1', name: 'Read', arguments: '{}' }],
      ['tool/result', { callId: 'c1', content: blocks }],
    ]),
    attachments: found,
  };
  const { items, leftOut } = conversationOf(document, { resultImages });
  const prompt = items[0]!.kind === 'prompt' ? items[0]!.content : undefined;
  const result = items[1]!.kind === 'step' ? items[1]!.calls[0]!.result?.content : undefined;
  return { prompt: prompt!, result: result!, leftOut };
}

/** The content back as the text `plainText` gives, each carried image named by the ref it came from. */
function named(content: ConversationContent, carriedRefs: readonly string[]): string {
  if (typeof content === 'string') return content;
  let image = 0;
  return content
    .map((part) => (part.type === 'text' ? part.text : `[image ${carriedRefs[image++]}]`))
    .join('\n');
}

describe('images in the conversation', () => {
  it('carries exactly the stored images of a type a target takes, in order, with their bytes; the text reads as before', () => {
    fc.assert(
      fc.property(content, attachments, fc.boolean(), (blocks, found, resultImages) => {
        const { prompt, result, leftOut } = both(blocks, found, resultImages);
        const refs = blocks.flatMap((b) => (b.type === 'image' ? [b.ref] : []));
        const carried = refs.filter((ref) => TAKEN.has(found.get(ref)?.mediaType ?? ''));
        const images = (c: ConversationContent): unknown[] =>
          typeof c === 'string' ? [] : c.filter((part) => part.type === 'image');
        const expectedImages = carried.map((ref) => ({ type: 'image', ...found.get(ref)! }));
        expect(images(prompt)).toEqual(expectedImages);
        expect(images(result)).toEqual(resultImages ? expectedImages : []);
        // Nothing else changes: with the carried images named, the text is `plainText`'s.
        const text = plainText(blocks, () => undefined);
        expect(named(prompt, carried)).toBe(text);
        expect(named(result, resultImages ? carried : [])).toBe(text);
        // No image carried: the very string written before images were carried.
        if (carried.length === 0) expect(prompt).toBe(text);
        const left = 2 * refs.length - carried.length - (resultImages ? carried.length : 0);
        expect(leftOut.filter((line) => line.endsWith('image not carried'))).toEqual(
          left === 0 ? [] : [`${left} × image not carried`],
        );
      }),
    );
  });
});
