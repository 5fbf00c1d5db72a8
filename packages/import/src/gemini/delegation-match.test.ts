import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchDelegations, type DelegationCall, type NestedChat } from './delegation-match.js';

const QUESTIONS = ['How do I set a theme?', 'Find the slow query', 'Same?', 'Why?'];
const chatArb = fc.record({
  start: fc.integer({ min: 0, max: 1000 }),
  question: fc.constantFrom(...QUESTIONS),
});
const callArb = fc.record({
  at: fc.integer({ min: 0, max: 1000 }),
  question: fc.option(fc.constantFrom(...QUESTIONS), { nil: undefined }),
});
const world = fc.record({
  chats: fc.array(chatArb, { maxLength: 6 }),
  calls: fc.array(callArb, { maxLength: 8 }),
});

interface World {
  readonly chats: readonly { readonly start: number; readonly question: string }[];
  readonly calls: readonly { readonly at: number; readonly question: string | undefined }[];
}

/** Chats asking their question as gemini-cli's cli_help template does; calls passing theirs (or none). */
function build(w: World): { chats: NestedChat[]; calls: DelegationCall[] } {
  const chats: NestedChat[] = w.chats.map((c, i) => ({
    key: `n${i}`,
    start: c.start,
    prompt: `Your task is to answer:\n<question>\n${c.question}\n</question>`,
  }));
  const calls: DelegationCall[] = w.calls.map((c, i) => ({
    id: `c${i}`,
    at: c.at,
    inputs: c.question === undefined ? [] : [c.question],
  }));
  return { chats, calls };
}

const plain = (m: Map<string, DelegationCall>) => [...m.entries()].map(([k, c]) => [k, c.id]).sort();

describe('matchDelegations', () => {
  it('property: each call runs at most one chat, and only a chat whose prompt holds its inputs', () => {
    fc.assert(
      fc.property(world, (w) => {
        const { chats, calls } = build(w);
        const matched = matchDelegations(chats, calls);
        const ids = [...matched.values()].map((c) => c.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (const [key, call] of matched) {
          const prompt = chats.find((c) => c.key === key)!.prompt!;
          for (const input of call.inputs ?? []) expect(prompt).toContain(input);
        }
      }),
    );
  });

  it('property: the matching does not depend on the order of chats or calls, nor on a shift of all times', () => {
    fc.assert(
      fc.property(world, fc.integer({ min: -500, max: 500 }), (w, shift) => {
        const { chats, calls } = build(w);
        const base = plain(matchDelegations(chats, calls));
        expect(plain(matchDelegations([...chats].reverse(), [...calls].reverse()))).toEqual(base);
        const shifted = matchDelegations(
          chats.map((c) => ({ ...c, start: c.start + shift })),
          calls.map((c) => ({ ...c, at: c.at + shift })),
        );
        expect(plain(shifted)).toEqual(base);
      }),
    );
  });

  it('property: chats of distinct questions, each with one call, each get their call whenever it was written', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(QUESTIONS, { minLength: 1 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1000 })), {
          minLength: QUESTIONS.length,
          maxLength: QUESTIONS.length,
        }),
        (questions, times) => {
          const w = {
            chats: questions.map((question, i) => ({ start: times[i]![0], question })),
            calls: questions.map((question, i) => ({ at: times[i]![1], question })),
          };
          const { chats, calls } = build(w);
          expect(plain(matchDelegations(chats, calls))).toEqual(
            questions.map((_, i) => [`n${i}`, `c${i}`]).sort(),
          );
        },
      ),
    );
  });

  it('with calls all after their chats started, the k-th chat of one question gets the k-th call', () => {
    const { chats, calls } = build({
      chats: [
        { start: 100, question: 'Same?' },
        { start: 1010, question: 'Same?' },
      ],
      calls: [
        { at: 1020, question: 'Same?' },
        { at: 1000, question: 'Same?' },
      ],
    });
    expect(plain(matchDelegations(chats, calls))).toEqual([
      ['n0', 'c1'],
      ['n1', 'c0'],
    ]);
  });

  it('a chat without a start time is matched without taking a call another chat is nearer to', () => {
    const chats: NestedChat[] = [
      { key: 'timed', start: 500, prompt: 'x' },
      { key: 'untimed', start: Number.POSITIVE_INFINITY, prompt: 'x' },
    ];
    const calls: DelegationCall[] = [
      { id: 'near', at: 490, inputs: ['x'] },
      { id: 'far', at: 10, inputs: ['x'] },
    ];
    expect(plain(matchDelegations(chats, calls))).toEqual([
      ['timed', 'near'],
      ['untimed', 'far'],
    ]);
  });
});
