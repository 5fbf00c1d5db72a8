import { describe, expect, it } from 'vitest';
import { chatUsage } from './chat-chunks.js';

describe('chatUsage', () => {
  it('takes the cached prompt tokens out of input as cache reads and names reasoning inside output', () => {
    expect(
      chatUsage({
        prompt_tokens: 12_000,
        completion_tokens: 900,
        prompt_tokens_details: { cached_tokens: 10_000 },
        completion_tokens_details: { reasoning_tokens: 600 },
      }),
    ).toEqual({ input: 2_000, cacheRead: 10_000, output: 900, reasoning: 600 });
  });

  it('reads a server without the details as fresh input, and refuses a usage without the two counts', () => {
    expect(chatUsage({ prompt_tokens: 30, completion_tokens: 9 })).toEqual({ input: 30, output: 9 });
    // A cached figure above the prompt (a confused server) never makes input negative.
    expect(
      chatUsage({ prompt_tokens: 5, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 8 } }),
    ).toEqual({ input: 0, cacheRead: 5, output: 1 });
    expect(chatUsage({ prompt_tokens: 5 })).toBeUndefined();
    expect(chatUsage({ prompt_tokens: -1, completion_tokens: 1 })).toBeUndefined();
  });
});
