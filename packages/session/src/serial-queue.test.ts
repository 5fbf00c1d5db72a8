import { describe, expect, it } from 'vitest';
import { SerialQueue } from './serial-queue.js';

describe('SerialQueue', () => {
  it('runs steps one at a time in queue order, awaits included; a failure is reported and the queue goes on', async () => {
    const reported: unknown[] = [];
    const queue = new SerialQueue((error) => reported.push(error));
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    queue.enqueue(async () => {
      log.push('a start');
      await gate;
      log.push('a end');
    });
    queue.enqueue(() => {
      throw new Error('b failed');
    });
    const c = queue.run(() => {
      log.push('c');
      return 3;
    });
    const d = queue.run(() => Promise.reject(new Error('d failed')));
    await Promise.resolve();
    expect(log).toEqual(['a start']);
    release();
    await expect(c).resolves.toBe(3);
    await expect(d).rejects.toThrow('d failed');
    await queue.settled();
    expect(log).toEqual(['a start', 'a end', 'c']);
    // `run`'s failure goes to its caller, `enqueue`'s to the reporter.
    expect(reported).toEqual([new Error('b failed')]);
  });
});
