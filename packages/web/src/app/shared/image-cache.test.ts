import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImageCache } from './image-cache.js';

describe('ImageCache', () => {
  it('loads a key once, and again after a failed load', async () => {
    const cache = new ImageCache(100);
    let loads = 0;
    const load = (): Promise<string> => Promise.resolve(`url${++loads}`);
    expect(await cache.get('a', load)).toBe('url1');
    expect(await cache.get('a', load)).toBe('url1');
    await expect(cache.get('b', () => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
    expect(cache.has('b')).toBe(false);
    expect(await cache.get('b', load)).toBe('url2');
  });

  it('keeps at most maxBytes of loaded images, dropping the least recently used first', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd', 'e'), size: fc.integer({ min: 1, max: 40 }) }),
          {
            maxLength: 40,
          },
        ),
        async (reads) => {
          const cache = new ImageCache(60);
          const sizes = new Map<string, number>();
          /** The model: keys by recency (last is most recent) with their sizes. */
          let model: string[] = [];
          for (const { key, size } of reads) {
            const url = await cache.get(key, () => Promise.resolve('x'.repeat(size)));
            if (!sizes.has(key) || !model.includes(key)) sizes.set(key, url.length);
            model = [...model.filter((k) => k !== key), key];
            let total = model.reduce((sum, k) => sum + sizes.get(k)!, 0);
            while (total > 60) {
              const oldest = model.shift()!;
              total -= sizes.get(oldest)!;
            }
            expect(cache.bytes).toBe(total);
            expect(cache.bytes).toBeLessThanOrEqual(60);
            for (const k of ['a', 'b', 'c', 'd', 'e']) expect(cache.has(k)).toBe(model.includes(k));
          }
        },
      ),
    );
  });
});
