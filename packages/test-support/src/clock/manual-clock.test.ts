import { describe, expect, it } from 'vitest';
import { ManualClock } from './manual-clock.js';

describe('ManualClock', () => {
  it('fires timeouts only when time is advanced past them, in deadline order', () => {
    const clock = new ManualClock();
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 10);
    const cleared = clock.setTimeout(() => fired.push('never'), 15);
    clock.clearTimeout(cleared);
    clock.advance(9);
    expect(fired).toEqual([]);
    clock.advance(11);
    expect(fired).toEqual(['a@10', 'b@20']);
    expect(clock.now()).toBe(20);
    expect(clock.pending).toBe(0);
  });

  it('re-arms intervals, also several times within one advance, until cleared', () => {
    const clock = new ManualClock();
    const ticks: number[] = [];
    const handle = clock.setInterval(() => ticks.push(clock.now()), 100);
    clock.advance(350);
    expect(ticks).toEqual([100, 200, 300]);
    clock.clearInterval(handle);
    clock.advance(1_000);
    expect(ticks).toEqual([100, 200, 300]);
  });

  it('a timer armed by a firing timer fires in the same advance when it comes due', () => {
    const clock = new ManualClock();
    const fired: number[] = [];
    clock.setTimeout(() => clock.setTimeout(() => fired.push(clock.now()), 5), 5);
    clock.advance(10);
    expect(fired).toEqual([10]);
  });

  it('whenArmed resolves once the code under test has armed its timers', async () => {
    const clock = new ManualClock();
    let armed = false;
    const waiting = clock.whenArmed(2).then(() => (armed = true));
    clock.setTimeout(() => undefined, 1);
    await Promise.resolve();
    expect(armed).toBe(false);
    clock.setTimeout(() => undefined, 1);
    await waiting;
    expect(armed).toBe(true);
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });
});
