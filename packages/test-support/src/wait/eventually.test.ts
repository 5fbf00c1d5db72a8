import { describe, expect, it } from 'vitest';
import { eventually } from './eventually.js';

describe('eventually', () => {
  it('resolves once the condition holds, sync or async', async () => {
    let calls = 0;
    await eventually(() => ++calls >= 3, 'the third call');
    expect(calls).toBe(3);
    await eventually(() => Promise.resolve(true), 'an async condition');
  });

  it('ends a wait that never holds with an error naming it', async () => {
    await expect(eventually(() => false, 'the impossible', 30)).rejects.toThrow(
      'timed out waiting for the impossible',
    );
  });
});
