import { describe, expect, it } from 'vitest';
import { workloadTurns } from '@strand/workload';
import { humanizeTurn } from './demo-text.js';

describe('demo text', () => {
  const turn = [...workloadTurns(0, 21)][0]!;
  const human = humanizeTurn(turn, 0);

  it('keeps the workload turn shape: types, times, call ids, arguments matching their calls', () => {
    expect(human.map((e) => [e.type, e.time])).toEqual(turn.map((e) => [e.type, e.time]));
    const data = (i: number) => human[i]!.data as Record<string, unknown>;
    for (const [i, event] of human.entries()) {
      if (event.type !== 'tool/call') continue;
      const declared = (data(i - 1).toolCalls as { id: string; arguments: string }[])[0]!;
      expect(declared.id).toBe(data(i).callId);
      expect(declared.arguments).toBe(data(i).arguments);
    }
  });

  it("gives demo-1's first final reply a list and a fenced code block", () => {
    const final = human.filter((e) => e.type === 'assistant/message').at(-1)!.data as { content: string };
    expect(final.content).toMatch(/^- /m);
    expect(final.content).toMatch(/^```ts$/m);
  });
});
