import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ShownGeneration } from '@strand/client';
import type { WireEvent } from '@strand/protocol';
import { followStep } from './follow-step.js';

const LOG: WireEvent[] = Array.from({ length: 200 }, (_, seq) => ({
  seq,
  time: seq,
  type: 'x/tick',
  data: { seq },
}));

function window(firstSeq: number, cursor: number): ShownGeneration {
  return {
    followId: `f${firstSeq}-${cursor}`,
    generation: 1,
    header: {} as ShownGeneration['header'],
    inheritedEventCount: 0,
    firstSeq,
    cursor,
    events: LOG.slice(firstSeq, cursor),
    live: true,
    busy: false,
  };
}

/** Every event `followStep` prints over a run of views, in order, and the holes it reported. */
function printed(views: readonly (ShownGeneration | null)[]): { seqs: number[]; skipped: number[] } {
  let next: number | undefined;
  const seqs: number[] = [];
  const skipped: number[] = [];
  for (const shown of views) {
    const step = followStep(next, shown);
    if (step.kind === 'nothing') continue;
    next = step.next;
    const events = step.kind === 'snapshot' ? shown!.events : step.events;
    seqs.push(...events.map((e) => e.seq));
    if (step.kind === 'events' && step.skipped !== undefined)
      for (let seq = step.skipped.from; seq <= step.skipped.to; seq++) skipped.push(seq);
  }
  return { seqs, skipped };
}

/** Windows of one log as a follower shows them: growing cursors, a new generation anywhere below its cursor. */
const views = fc
  .array(fc.record({ grow: fc.nat(20), firstBack: fc.nat(40), gone: fc.boolean() }), {
    minLength: 1,
    maxLength: 30,
  })
  .map((moves) => {
    let cursor = 0;
    return moves.map(({ grow, firstBack, gone }) => {
      cursor = Math.min(LOG.length, cursor + grow);
      return gone ? null : window(Math.max(0, cursor - firstBack), cursor);
    });
  });

describe('followStep', () => {
  it('prints each event once, in seq order, from the first window on; a hole only when said so', () => {
    fc.assert(
      fc.property(views, (run) => {
        const { seqs, skipped } = printed(run);
        const first = run.find((shown) => shown !== null);
        if (first === undefined) {
          expect(seqs).toEqual([]);
          return;
        }
        const last = Math.max(...run.map((shown) => shown?.cursor ?? 0));
        const all = [...seqs, ...skipped].sort((a, b) => a - b);
        expect(all).toEqual(Array.from({ length: last - first.firstSeq }, (_, i) => first.firstSeq + i));
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      }),
    );
  });

  it('a new generation that repeats printed events prints only the new ones', () => {
    const step = followStep(25, window(5, 30));
    expect(step).toMatchObject({ kind: 'events', next: 30 });
    expect(step.kind === 'events' && step.events.map((e) => e.seq)).toEqual([25, 26, 27, 28, 29]);
  });

  it('a window starting past what was printed says which events it skipped', () => {
    expect(followStep(10, window(40, 42))).toMatchObject({ kind: 'events', skipped: { from: 10, to: 39 } });
  });
});
