import type { WireEvent } from '@strand/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendEvents, joinSnapshot, prependOlder, windowEnd, type EventWindow } from './event-window.js';

function ev(seq: number): WireEvent {
  return { type: 'user/message', seq, time: seq, data: { content: `m${seq}` } };
}
function evs(from: number, to: number): WireEvent[] {
  return Array.from({ length: to - from }, (_, index) => ev(from + index));
}
function win(from: number, to: number): EventWindow {
  return { firstSeq: from, events: evs(from, to) };
}
const seqs = (window: EventWindow): number[] => window.events.map((event) => event.seq);

describe('appendEvents', () => {
  it('appends a contiguous batch at the end', () => {
    expect(appendEvents(win(3, 5), evs(5, 7))).toEqual({ kind: 'appended', window: win(3, 7), count: 2 });
  });

  it('drops the duplicates at the front of an overlapping batch', () => {
    expect(appendEvents(win(3, 5), evs(4, 7))).toEqual({ kind: 'appended', window: win(3, 7), count: 2 });
  });

  it('ignores a batch it already holds', () => {
    expect(appendEvents(win(3, 5), evs(3, 5))).toEqual({ kind: 'duplicate' });
    expect(appendEvents(win(3, 5), [])).toEqual({ kind: 'duplicate' });
  });

  it('reports a gap as expected N, got M', () => {
    expect(appendEvents(win(3, 5), evs(8, 9))).toEqual({ kind: 'gap', expected: 5, got: 8 });
  });

  it('converges to the full log from any batching, duplication and reordering, repairing gaps by seq', () => {
    // A model of the follower's loop: frames arrive in random batches, some twice, some lost; a gap
    // is repaired by reading the missing range from the log. The window must end as the exact log.
    const logLength = 40;
    const frameArb = fc.record({
      from: fc.nat({ max: logLength - 1 }),
      size: fc.integer({ min: 1, max: 6 }),
    });
    fc.assert(
      fc.property(fc.array(frameArb, { maxLength: 40 }), (frames) => {
        let window = win(0, 0);
        const apply = (batch: WireEvent[]): void => {
          const result = appendEvents(window, batch);
          if (result.kind === 'appended') window = result.window;
          if (result.kind === 'gap') {
            const repaired = appendEvents(window, evs(result.expected, result.got));
            if (repaired.kind !== 'appended') throw new Error(`repair failed: ${repaired.kind}`);
            window = repaired.window;
            apply(batch);
          }
        };
        for (const frame of frames) apply(evs(frame.from, Math.min(logLength, frame.from + frame.size)));
        apply(evs(0, logLength));
        expect(seqs(window)).toEqual(evs(0, logLength).map((event) => event.seq));
      }),
    );
  });
});

describe('joinSnapshot', () => {
  it('replaces when there is no previous window', () => {
    expect(joinSnapshot(null, win(5, 8))).toEqual({ kind: 'replaced', window: win(5, 8) });
  });

  it('keeps older events when the new window overlaps or touches the previous one', () => {
    expect(joinSnapshot(win(0, 6), win(4, 9))).toEqual({ kind: 'joined', window: win(0, 9) });
    expect(joinSnapshot(win(0, 4), win(4, 9))).toEqual({ kind: 'joined', window: win(0, 9) });
    expect(joinSnapshot(win(5, 6), win(2, 9))).toEqual({ kind: 'joined', window: win(2, 9) });
  });

  it('reports the hole between the windows', () => {
    expect(joinSnapshot(win(0, 4), win(7, 9))).toEqual({ kind: 'gap', from: 4, to: 7 });
  });

  it('replaces a previous window that ends beyond the new cursor (another log under the id)', () => {
    expect(joinSnapshot(win(0, 10), win(0, 3))).toEqual({ kind: 'replaced', window: win(0, 3) });
  });
});

describe('prependOlder', () => {
  it('puts the page in front of the window', () => {
    expect(prependOlder(win(5, 8), { firstSeq: 2, events: evs(2, 5) })).toEqual({
      kind: 'prepended',
      window: win(2, 8),
      count: 3,
    });
  });

  it('keeps only what lies before the window', () => {
    const result = prependOlder(win(5, 8), { firstSeq: 3, events: evs(3, 7) });
    expect(result).toMatchObject({ kind: 'prepended', count: 2 });
    if (result.kind === 'prepended') expect(seqs(result.window)).toEqual([3, 4, 5, 6, 7]);
  });

  it('refuses a page that does not end right before the window', () => {
    expect(prependOlder(win(5, 8), { firstSeq: 1, events: evs(1, 3) }).kind).toBe('disjoint');
    expect(prependOlder(win(5, 8), { firstSeq: 5, events: [] }).kind).toBe('empty');
  });

  it('windowEnd is the cursor', () => {
    expect(windowEnd(win(4, 9))).toBe(9);
  });
});
