import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FollowFrame } from './follow-frames.js';
import { heldFrames, holding, isSameOpening, newOpening, routeFrame } from './frame-routing.js';

const frame = (followId: string, generation: number): FollowFrame => ({
  followId,
  generation,
  kind: 'state',
  live: true,
  busy: false,
});
const carrier = { followId: 'f1', generation: 1, epoch: 1 };

describe('routeFrame', () => {
  it("applies the shown generation's frames from its own socket", () => {
    expect(routeFrame(frame('f1', 1), 1, carrier, null)).toEqual({ kind: 'apply', carrier });
  });

  it('ignores an older generation, and the same ids from another socket, when nothing is opening', () => {
    expect(routeFrame(frame('f1', 0), 1, carrier, null)).toEqual({ kind: 'ignore' });
    expect(routeFrame(frame('f1', 1), 2, carrier, null)).toEqual({ kind: 'ignore' });
  });

  it('holds any other frame of the socket a follow is opening on', () => {
    const pending = newOpening(1, 2);
    expect(routeFrame(frame('f9', 7), 2, carrier, pending)).toEqual({ kind: 'hold', opening: pending });
    expect(routeFrame(frame('f9', 7), 1, carrier, pending)).toEqual({ kind: 'ignore' });
  });
});

describe('holding', () => {
  it('keeps the frames in arrival order up to the bound, then marks the opening overflowed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 20 }), (arriving, max) => {
        const frames = Array.from({ length: arriving }, (_, i) => frame(`f${i}`, i));
        const before = newOpening(7, 1);
        const after = frames.reduce((opening, next) => holding(opening, next, max), before);
        expect(heldFrames(after)).toEqual(frames.slice(0, max));
        expect(after.overflowed).toBe(arriving > max);
        expect(isSameOpening(after, before)).toBe(true);
        // Immutable: the opening held before is unchanged.
        expect(heldFrames(before)).toEqual([]);
        expect(before.overflowed).toBe(false);
      }),
    );
  });

  it('an opening is recognised by its id, not by the object', () => {
    expect(isSameOpening(newOpening(1, 1), newOpening(1, 1))).toBe(true);
    expect(isSameOpening(newOpening(2, 1), newOpening(1, 1))).toBe(false);
    expect(isSameOpening(null, newOpening(1, 1))).toBe(false);
  });
});
