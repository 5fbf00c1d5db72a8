import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SessionSeq, type SessionEvent, type SessionId } from '@strand/session';
import type { SessionRow } from './session-rows.js';
import {
  afterBegin,
  indexedText,
  isOwnSeq,
  MAX_INDEXED_CHARS,
  planAppend,
  planBegin,
  type IndexedText,
} from './write-rules.js';

const row = (over: Partial<SessionRow> = {}): SessionRow => ({
  sid: 7,
  sessionId: 's' as SessionId,
  incarnation: 'inc-1',
  revision: 'rev-1',
  cut: 4,
  durableCut: 4,
  ownFrom: 0,
  ...over,
});

const event = (seq: number, text?: string): SessionEvent => ({
  type: text === undefined ? 'step/start' : 'user/message',
  seq: SessionSeq(seq),
  time: 0,
  data: text === undefined ? {} : { content: text, author: 'human' },
});

const textOf = (e: SessionEvent): string | undefined => (e.data as { content?: string }).content;

describe('planBegin', () => {
  it('keeps what another writer indexed from the same incarnation, whatever the plan expected', () => {
    expect(planBegin(row(), 'inc-1', { kind: 'keep' }, 0)).toEqual({ kind: 'keep' });
  });

  it('resets a row of another incarnation even when asked to keep, and on an explicit reset', () => {
    expect(planBegin(row(), 'inc-2', { kind: 'keep' }, 0)).toEqual({
      kind: 'reset',
      incarnation: 'inc-2',
      ownFrom: 0,
    });
    expect(planBegin(row(), 'inc-1', { kind: 'reset' }, 0)).toEqual({
      kind: 'reset',
      incarnation: 'inc-1',
      ownFrom: 0,
    });
    expect(afterBegin(row(), { kind: 'reset', incarnation: 'inc-2', ownFrom: 0 })).toMatchObject({
      incarnation: 'inc-2',
      revision: null,
      cut: 0,
      durableCut: 0,
    });
  });

  it('binds the first own seq of the incarnation it resets to (a fork recreated under the same id)', () => {
    const step = planBegin(row(), 'inc-2', { kind: 'keep' }, 3);
    expect(step).toEqual({ kind: 'reset', incarnation: 'inc-2', ownFrom: 3 });
    expect(afterBegin(row(), step)).toMatchObject({ incarnation: 'inc-2', cut: 0, ownFrom: 3 });
  });

  it('truncates only rows indexed from memory, and is a no-op once they were replaced', () => {
    const warm = row({ cut: 9, durableCut: 4 });
    expect(planBegin(warm, 'inc-1', { kind: 'truncate' }, 0)).toEqual({ kind: 'truncate', from: 4 });
    expect(afterBegin(warm, { kind: 'truncate', from: 4 })).toMatchObject({ cut: 4, durableCut: 4 });
    // Another host already re-read them from disk: nothing left to drop.
    expect(planBegin(row({ cut: 9, durableCut: 9 }), 'inc-1', { kind: 'truncate' }, 0)).toEqual({
      kind: 'keep',
    });
  });
});

describe('planAppend', () => {
  it('skips events below the cut, so a batch delivered twice writes nothing the second time', () => {
    const events = [event(2, 'a'), event(3, 'b'), event(4, 'c'), event(5), event(6, 'd')];
    const plan = planAppend(row(), events, 'disk', 'rev-2', textOf);
    expect(plan.rows).toEqual([
      { seq: 4, text: 'c' },
      { seq: 6, text: 'd' },
    ]);
    expect(plan).toMatchObject({ events: 3, cut: 7, durableCut: 7, progressed: true, revision: 'rev-2' });
    const again = planAppend(row({ cut: 7, durableCut: 7 }), events, 'disk', 'rev-2', textOf);
    expect(again).toMatchObject({ rows: [], events: 0, progressed: false });
  });

  it('stops at a gap and then records no revision', () => {
    const plan = planAppend(row(), [event(4, 'x'), event(6, 'y')], 'disk', 'rev-2', textOf);
    expect(plan).toMatchObject({ events: 1, cut: 5, revision: undefined });
  });

  it('keeps memory rows out of the durable prefix, and disk rows above them too', () => {
    expect(planAppend(row(), [event(4, 'm')], 'memory', undefined, textOf)).toMatchObject({
      cut: 5,
      durableCut: 4,
    });
    expect(planAppend(row({ cut: 5 }), [event(5, 'd')], 'disk', 'rev-3', textOf)).toMatchObject({
      cut: 6,
      durableCut: 4,
      revision: undefined,
    });
  });

  it("writes no text row for a fork's inherited prefix, but still reads the label set there", () => {
    const labelOf = (e: SessionEvent): string | undefined => (e.seq === 1 ? 'inherited title' : undefined);
    const events = [event(0, 'parent asked'), event(1), event(2, 'parent answered'), event(3, 'fork asked')];
    const plan = planAppend(
      row({ cut: 0, durableCut: 0, ownFrom: 3 }),
      events,
      'disk',
      'rev-1',
      textOf,
      undefined,
      labelOf,
    );
    expect(plan.rows).toEqual([{ seq: 3, text: 'fork asked' }]);
    expect(plan.labels).toEqual([{ seq: 1, text: 'inherited title' }]);
    // The inherited events are consumed all the same: the cut and the revision cover them.
    expect(plan).toMatchObject({ events: 4, cut: 4, durableCut: 4, revision: 'rev-1' });
  });

  it('refuses a seq beyond the engine range', () => {
    expect(() => planAppend(row(), [event(4, 'x')], 'disk', undefined, textOf, 3)).toThrow(
      expect.objectContaining({ code: 'SEARCH_INDEX_FAILED' }),
    );
  });
});

describe('isOwnSeq', () => {
  // The rule as a fold: however a log reaches the index (batches of any size, from disk or memory,
  // delivered again), its text rows are exactly its own events with text, each once, and every
  // event that sets the label is read — the inherited ones included.
  it('indexes exactly the own events with text, whatever the batching and redelivery', () => {
    const log = fc
      .array(fc.record({ text: fc.boolean(), label: fc.boolean() }), { maxLength: 30 })
      .chain((shape) =>
        fc.record({
          shape: fc.constant(shape),
          ownFrom: fc.integer({ min: 0, max: shape.length }),
          // Each delivery: a window [from, from + size) of the log, from disk or memory.
          deliveries: fc.array(
            fc.record({
              from: fc.integer({ min: 0, max: shape.length }),
              size: fc.integer({ min: 0, max: 8 }),
              disk: fc.boolean(),
            }),
            { maxLength: 20 },
          ),
        }),
      );
    fc.assert(
      fc.property(log, ({ shape, ownFrom, deliveries }) => {
        const events = shape.map((e, seq) => event(seq, e.text ? `text ${seq}` : undefined));
        const labelOf = (e: SessionEvent): string | undefined =>
          shape[e.seq]!.label ? `label ${e.seq}` : undefined;
        let current = row({ cut: 0, durableCut: 0, ownFrom });
        const rows: IndexedText[] = [];
        const labels: IndexedText[] = [];
        // Whatever the deliveries were, a last full one brings the cut to the end (as a sync does).
        for (const { from, size, disk } of [...deliveries, { from: 0, size: shape.length, disk: true }]) {
          const batch = events.slice(from, from + size);
          const plan = planAppend(
            current,
            batch,
            disk ? 'disk' : 'memory',
            undefined,
            textOf,
            undefined,
            labelOf,
          );
          rows.push(...plan.rows);
          labels.push(...plan.labels);
          current = { ...current, cut: plan.cut, durableCut: plan.durableCut };
        }
        expect(current.cut).toBe(shape.length);
        expect(rows.map((r) => r.seq)).toEqual(
          shape.flatMap((e, seq) => (e.text && seq >= ownFrom ? [seq] : [])),
        );
        expect(shape.every((_, seq) => isOwnSeq(current, seq) === seq >= ownFrom)).toBe(true);
        expect(labels.map((r) => r.seq)).toEqual(shape.flatMap((e, seq) => (e.label ? [seq] : [])));
      }),
    );
  });
});

describe('indexedText', () => {
  it('caps text without splitting a surrogate pair and neutralizes highlight markers', () => {
    const long = 'a'.repeat(MAX_INDEXED_CHARS - 1) + '😀tail';
    const capped = indexedText(() => long, event(0, ''))!;
    expect(capped).toHaveLength(MAX_INDEXED_CHARS - 1);
    expect(indexedText(() => 'x\u0002y', event(0, ''))).toBe('x\uFFFDy');
  });

  it('treats a throwing extractor or blank text as no text', () => {
    expect(
      indexedText(
        () => {
          throw new Error('odd event');
        },
        event(0, ''),
      ),
    ).toBeUndefined();
    expect(indexedText(() => '  \n', event(0, ''))).toBeUndefined();
  });
});
