import { describe, expect, it } from 'vitest';
import type { FollowFrame } from './follow-frames.js';
import { routeFrame, type Opening } from './frame-routing.js';

const frame = (followId: string, generation: number): FollowFrame => ({
  followId,
  generation,
  kind: 'state',
  live: true,
  busy: false,
});
const carrier = { followId: 'f1', generation: 1, epoch: 1 };
const opening = (epoch: number, buffered = 0): Opening => ({
  epoch,
  buffered: Array.from({ length: buffered }, () => frame('x', 0)),
  overflowed: false,
});

describe('routeFrame', () => {
  it("applies the shown generation's frames from its own socket", () => {
    expect(routeFrame(frame('f1', 1), 1, carrier, null, 10)).toEqual({ kind: 'apply', carrier });
  });

  it('ignores an older generation, and the same ids from another socket, when nothing is opening', () => {
    expect(routeFrame(frame('f1', 0), 1, carrier, null, 10)).toEqual({ kind: 'ignore' });
    expect(routeFrame(frame('f1', 1), 2, carrier, null, 10)).toEqual({ kind: 'ignore' });
  });

  it('holds any other frame of the socket a follow is opening on', () => {
    const pending = opening(2);
    expect(routeFrame(frame('f9', 7), 2, carrier, pending, 10)).toEqual({ kind: 'buffer', opening: pending });
    expect(routeFrame(frame('f9', 7), 1, carrier, pending, 10)).toEqual({ kind: 'ignore' });
  });

  it('reports an overflow once the buffer is full', () => {
    const full = opening(1, 2);
    expect(routeFrame(frame('f2', 2), 1, carrier, full, 2)).toEqual({ kind: 'overflow', opening: full });
  });
});
