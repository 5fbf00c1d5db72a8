import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@strand/protocol';
import { excerptRange, joinExcerpt, prependPage, TARGET_CONTEXT, type EventRun } from './target-excerpt.js';

function run(firstSeq: number, length: number, tag: string): EventRun {
  return {
    firstSeq,
    events: Array.from(
      { length },
      (_, i): WireEvent => ({ seq: firstSeq + i, time: 0, type: 'turn/start', data: { tag } }),
    ),
  };
}
const seqs = (shown: EventRun): number[] => shown.events.map((event) => event.seq);
const contiguous = (shown: EventRun): boolean => seqs(shown).every((seq, i) => seq === shown.firstSeq + i);

describe('target excerpt', () => {
  it('reads from a little above the target, never before seq 0', () => {
    expect(excerptRange(5).fromSeq).toBe(0);
    expect(excerptRange(40_000).fromSeq).toBe(40_000 - TARGET_CONTEXT);
  });

  it('joined or detached, the shown run is contiguous, starts at the excerpt and holds the window when they touch', () => {
    fc.assert(
      fc.property(
        fc.nat(1_000),
        fc.integer({ min: 1, max: 300 }),
        fc.nat(1_000),
        fc.integer({ min: 1, max: 300 }),
        (excerptFirst, excerptLength, windowFirst, windowLength) => {
          const excerpt = run(excerptFirst, excerptLength, 'excerpt');
          const window = run(windowFirst, windowLength, 'window');
          const shown = joinExcerpt(excerpt, window);
          expect(contiguous(shown)).toBe(true);
          expect(shown.firstSeq).toBe(Math.min(excerptFirst, windowFirst));
          const touches = excerptFirst + excerptLength >= windowFirst;
          expect(shown.detached).toBe(!touches);
          if (touches) {
            // The window's events (where live appends land) are all shown, as the window's copies.
            const tail = shown.events.slice(shown.events.length - windowLength);
            expect(tail).toEqual(window.events);
          } else expect(shown.events).toEqual(excerpt.events);
        },
      ),
    );
  });

  it('puts an older page in front, each seq once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.nat(600), (excerptFirst, pageLength) => {
        const excerpt = run(excerptFirst, 10, 'excerpt');
        const pageFirst = Math.max(0, excerptFirst - pageLength);
        const shown = prependPage(excerpt, run(pageFirst, excerptFirst - pageFirst + 3, 'page'));
        expect(contiguous(shown)).toBe(true);
        expect(shown.firstSeq).toBe(pageLength === 0 ? excerptFirst : pageFirst);
        expect(seqs(shown).at(-1)).toBe(excerptFirst + 9);
      }),
    );
  });
});
