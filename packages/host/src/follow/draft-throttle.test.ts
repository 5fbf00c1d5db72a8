import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ManualClock } from '@strand/test-support';
import { DraftThrottle } from './draft-throttle.js';

describe('DraftThrottle', () => {
  it('sends the first draft at once, coalesces the rest of the interval and sends the latest when it ends', () => {
    const clock = new ManualClock();
    const sent: [number, string, number][] = [];
    const throttle = new DraftThrottle((step, text) => sent.push([step, text, clock.now()]), 50, clock);
    throttle.offer(3, 'a');
    clock.advance(10);
    throttle.offer(3, 'ab');
    clock.advance(10);
    throttle.offer(3, 'abc');
    expect(sent).toEqual([[3, 'a', 0]]);
    clock.advance(30);
    expect(sent).toEqual([
      [3, 'a', 0],
      [3, 'abc', 50],
    ]);
  });

  it('cancel drops the pending draft: nothing is sent after the step ended', () => {
    const clock = new ManualClock();
    const sent: string[] = [];
    const throttle = new DraftThrottle((_, text) => sent.push(text), 50, clock);
    throttle.offer(3, 'a');
    throttle.offer(3, 'ab');
    throttle.cancel();
    clock.advance(1000);
    expect(sent).toEqual(['a']);
  });

  it('never sends two drafts closer than the interval, and always ends on the latest text offered', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 120 }), { minLength: 1, maxLength: 60 }), (gaps) => {
        const clock = new ManualClock();
        const sent: { text: string; at: number }[] = [];
        const throttle = new DraftThrottle((_, text) => sent.push({ text, at: clock.now() }), 50, clock);
        let text = '';
        for (const gap of gaps) {
          clock.advance(gap);
          text += 'x';
          throttle.offer(1, text);
        }
        clock.advance(1000);
        for (let i = 1; i < sent.length; i++)
          expect(sent[i]!.at - sent[i - 1]!.at).toBeGreaterThanOrEqual(50);
        expect(sent.at(-1)?.text).toBe(text);
      }),
    );
  });
});
