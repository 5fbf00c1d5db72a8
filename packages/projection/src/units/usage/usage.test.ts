import { describe, expect, it } from 'vitest';
import { foldView, log } from '../../testing/events.js';
import { describeUnitLaws } from '../../testing/unit-laws.js';
import { USAGE_READS, usageUnit } from './usage.js';

describe('usage unit', () => {
  it('starts at zero and sums assistant usage records', () => {
    expect(foldView(usageUnit, [])).toEqual({ input: 0, output: 0 });
    const events = log(
      ['assistant/message', { content: 'a', usage: { input: 10, output: 2 } }],
      ['assistant/message', { content: 'b' }],
      ['assistant/message', { content: 'c', usage: { input: 5, output: 1 } }],
    );
    expect(foldView(usageUnit, events)).toEqual({ input: 15, output: 3 });
  });

  it('becomes null for good after a usage record it cannot read', () => {
    const events = log(
      ['assistant/message', { content: 'a', usage: { input: 10, output: 2 } }],
      ['assistant/message', { content: 'b', usage: { input: -1, output: 0 } }],
      ['assistant/message', { content: 'c', usage: { input: 5, output: 1 } }],
    );
    expect(foldView(usageUnit, events)).toBeNull();
  });
});

describeUnitLaws(usageUnit, USAGE_READS);
