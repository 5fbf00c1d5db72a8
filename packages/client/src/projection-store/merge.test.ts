import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeBaseline, mergeFrame, mergeHints, type MergeResult, type ProjectionRows } from './merge.js';

const EMPTY: ProjectionRows = new Map();

function rowsOf(result: MergeResult, before: ProjectionRows): ProjectionRows {
  return result.kind === 'changed' || result.kind === 'advanced' ? result.rows : before;
}

function rows(entries: Record<string, [unknown, number]>): ProjectionRows {
  return new Map(Object.entries(entries).map(([key, [value, seq]]) => [key, { value, seq }]));
}

const keyArb = fc.constantFrom('title', 'listMetadata', 'modelSelection', 'agentPreset', 'usage');
const valueArb = fc.oneof(
  fc.constant(null),
  fc.string({ maxLength: 4 }),
  fc.integer(),
  fc.record({ n: fc.integer() }),
);
const seqArb = fc.integer({ min: -1, max: 30 });
const rowsArb = fc
  .dictionary(keyArb, fc.record({ value: valueArb, seq: seqArb }))
  .map((entries): ProjectionRows => new Map(Object.entries(entries)));

describe('merge: frames', () => {
  it('a frame with a higher seq replaces the row and reports the key', () => {
    const result = mergeFrame(rows({ title: ['a', 3] }), { key: 'title', value: 'b', seq: 4 });
    expect(result).toEqual({ kind: 'changed', rows: rows({ title: ['b', 4] }), keys: ['title'] });
  });

  it('a frame with an equal or lower seq is ignored', () => {
    expect(mergeFrame(rows({ title: ['a', 3] }), { key: 'title', value: 'b', seq: 3 })).toEqual({
      kind: 'ignored',
    });
    expect(mergeFrame(rows({ title: ['a', 3] }), { key: 'title', value: 'b', seq: 2 })).toEqual({
      kind: 'ignored',
    });
  });

  it('a newer frame with the same value advances the row without reporting a change', () => {
    const result = mergeFrame(rows({ title: [{ t: 'a' }, 3] }), { key: 'title', value: { t: 'a' }, seq: 5 });
    expect(result).toEqual({ kind: 'advanced', rows: rows({ title: [{ t: 'a' }, 5] }) });
  });

  it('an explicit null is a value, distinct from a missing row', () => {
    const result = mergeFrame(EMPTY, { key: 'title', value: null, seq: 0 });
    expect(result).toEqual({ kind: 'changed', rows: rows({ title: [null, 0] }), keys: ['title'] });
  });

  it('refuses a seq that is not an integer >= -1, and an undefined value', () => {
    expect(mergeFrame(EMPTY, { key: 'title', value: 'a', seq: 1.5 }).kind).toBe('invalid');
    expect(mergeFrame(EMPTY, { key: 'title', value: 'a', seq: -2 }).kind).toBe('invalid');
    expect(mergeFrame(EMPTY, { key: 'title', value: undefined, seq: 1 }).kind).toBe('invalid');
  });
});

describe('merge: hints', () => {
  it('apply per key when newer; a missing key stays as it was', () => {
    const before = rows({ title: ['old', 2], usage: [{ input: 1 }, 9] });
    const result = mergeHints(before, { asOfSeq: 5, values: { title: 'new', usage: { input: 0 } } });
    expect(result).toEqual({
      kind: 'changed',
      rows: rows({ title: ['new', 5], usage: [{ input: 1 }, 9] }),
      keys: ['title'],
    });
  });

  it('an empty hint is ignored', () => {
    expect(mergeHints(rows({ title: ['a', 1] }), { asOfSeq: 10, values: {} })).toEqual({ kind: 'ignored' });
  });

  it('an undefined hint value is a missing key (JSON cannot carry undefined)', () => {
    expect(mergeHints(rows({ title: ['a', 1] }), { asOfSeq: 10, values: { title: undefined } })).toEqual({
      kind: 'ignored',
    });
  });
});

describe('merge: baseline', () => {
  it('replaces older rows, clears absent keys at or below its cut, keeps absent keys above it', () => {
    const before = rows({ title: ['a', 2], usage: ['u', 7], agentPreset: ['p', 8], subagent: ['s', 9] });
    const result = mergeBaseline(before, { asOfSeq: 8, values: { title: 'b' } });
    expect(result).toEqual({
      kind: 'changed',
      rows: rows({ title: ['b', 8], subagent: ['s', 9] }),
      keys: ['title', 'usage', 'agentPreset'],
    });
  });

  it('does not replace a row a later frame set', () => {
    const result = mergeBaseline(rows({ title: ['frame', 12] }), { asOfSeq: 10, values: { title: 'base' } });
    expect(result).toEqual({ kind: 'ignored' });
  });

  it('of an empty log (asOfSeq -1) sets values at seq -1', () => {
    const result = mergeBaseline(EMPTY, { asOfSeq: -1, values: { title: null } });
    expect(result).toEqual({ kind: 'changed', rows: rows({ title: [null, -1] }), keys: ['title'] });
  });
});

describe('merge properties', () => {
  it('order independence: any interleaving of frames converges to the highest-seq value per key', () => {
    // One value per (key, seq), as a log determines: the seq names one cut.
    const framesArb = fc.uniqueArray(
      fc.record({ key: keyArb, seq: fc.integer({ min: 0, max: 40 }), value: valueArb }),
      {
        selector: (frame) => `${frame.key}@${frame.seq}`,
        maxLength: 30,
      },
    );
    fc.assert(
      fc.property(framesArb, (frames) => {
        const converge = (order: typeof frames): ProjectionRows =>
          order.reduce((current, frame) => rowsOf(mergeFrame(current, frame), current), EMPTY);
        const expected = new Map<string, { value: unknown; seq: number }>();
        for (const frame of frames) {
          const held = expected.get(frame.key);
          if (held === undefined || held.seq < frame.seq)
            expected.set(frame.key, { value: frame.value, seq: frame.seq });
        }
        expect(converge(frames)).toEqual(expected);
        expect(converge([...frames].reverse())).toEqual(expected);
      }),
    );
  });

  it('order independence over random permutations', () => {
    const framesArb = fc.uniqueArray(
      fc.record({ key: keyArb, seq: fc.integer({ min: 0, max: 40 }), value: valueArb }),
      {
        selector: (frame) => `${frame.key}@${frame.seq}`,
        minLength: 1,
        maxLength: 20,
      },
    );
    fc.assert(
      fc.property(
        framesArb.chain((frames) =>
          fc.tuple(fc.constant(frames), fc.shuffledSubarray(frames, { minLength: frames.length })),
        ),
        ([frames, shuffled]) => {
          const converge = (order: typeof frames): ProjectionRows =>
            order.reduce((current, frame) => rowsOf(mergeFrame(current, frame), current), EMPTY);
          expect(converge(shuffled)).toEqual(converge(frames));
        },
      ),
    );
  });

  it('any interleaving of hints, baselines and frames cut from one log converges to the newest cut seen', () => {
    // A log's projection history: per key, the value at every seq 0..20 (as a fold would give).
    const historyArb = fc.dictionary(keyArb, fc.array(valueArb, { minLength: 21, maxLength: 21 }), {
      minKeys: 1,
    });
    const inputArb = fc.record({
      kind: fc.constantFrom('hint', 'baseline', 'frame'),
      seq: fc.integer({ min: 0, max: 20 }),
      subset: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
    });
    fc.assert(
      fc.property(historyArb, fc.array(inputArb, { minLength: 1, maxLength: 12 }), (history, inputs) => {
        const keys = Object.keys(history);
        const valueAt = (key: string, seq: number): unknown => history[key]![seq];
        let current: ProjectionRows = EMPTY;
        const newest = new Map<string, number>();
        for (const input of inputs) {
          const cutKeys =
            input.kind === 'baseline' ? keys : keys.filter((_, index) => input.subset[index] ?? false);
          const values = Object.fromEntries(cutKeys.map((key) => [key, valueAt(key, input.seq)]));
          for (const key of input.kind === 'frame' ? cutKeys.slice(0, 1) : cutKeys) {
            newest.set(key, Math.max(newest.get(key) ?? -1, input.seq));
          }
          const result =
            input.kind === 'hint'
              ? mergeHints(current, { asOfSeq: input.seq, values })
              : input.kind === 'baseline'
                ? mergeBaseline(current, { asOfSeq: input.seq, values })
                : cutKeys[0] === undefined
                  ? ({ kind: 'ignored' } as const)
                  : mergeFrame(current, {
                      key: cutKeys[0],
                      value: valueAt(cutKeys[0], input.seq),
                      seq: input.seq,
                    });
          current = rowsOf(result, current);
        }
        expect(current).toEqual(
          new Map([...newest].map(([key, seq]) => [key, { value: valueAt(key, seq), seq }])),
        );
      }),
    );
  });

  it('hints never clear: every known key stays known, and never goes to a lower seq', () => {
    const hintsArb = fc.record({
      asOfSeq: seqArb,
      values: fc.dictionary(keyArb, valueArb),
    });
    fc.assert(
      fc.property(rowsArb, hintsArb, (before, hints) => {
        const after = rowsOf(mergeHints(before, hints), before);
        for (const [key, row] of before) {
          const next = after.get(key);
          expect(next).toBeDefined();
          expect(next!.seq).toBeGreaterThanOrEqual(row.seq);
        }
      }),
    );
  });

  it('baseline clears only at or below its cut', () => {
    const baselineArb = fc.record({ asOfSeq: seqArb, values: fc.dictionary(keyArb, valueArb) });
    fc.assert(
      fc.property(rowsArb, baselineArb, (before, baseline) => {
        const after = rowsOf(mergeBaseline(before, baseline), before);
        for (const [key, row] of before) {
          const present = Object.hasOwn(baseline.values, key);
          if (!present && row.seq <= baseline.asOfSeq) expect(after.has(key)).toBe(false);
          else if (!present) expect(after.get(key)).toEqual(row);
          else expect(after.get(key)!.seq).toBe(Math.max(row.seq, baseline.asOfSeq));
        }
        for (const key of Object.keys(baseline.values)) expect(after.has(key)).toBe(true);
      }),
    );
  });

  it('null survives: a null from any input is a known value, and survives a JSON round trip of the input', () => {
    fc.assert(
      fc.property(
        keyArb,
        fc.integer({ min: 0, max: 30 }),
        fc.constantFrom('hint', 'baseline', 'frame'),
        (key, seq, kind) => {
          const wire = JSON.parse(JSON.stringify({ asOfSeq: seq, values: { [key]: null } })) as {
            asOfSeq: number;
            values: Record<string, unknown>;
          };
          const result =
            kind === 'hint'
              ? mergeHints(EMPTY, wire)
              : kind === 'baseline'
                ? mergeBaseline(EMPTY, wire)
                : mergeFrame(EMPTY, { key, value: wire.values[key], seq });
          const after = rowsOf(result, EMPTY);
          expect(after.get(key)).toEqual({ value: null, seq });
          // A later input without the key (hints) leaves the null in place.
          expect(rowsOf(mergeHints(after, { asOfSeq: seq + 1, values: {} }), after).get(key)).toEqual({
            value: null,
            seq,
          });
        },
      ),
    );
  });

  it('equal or lower seq is always ignored, whatever the input kind', () => {
    fc.assert(
      fc.property(rowsArb, keyArb, valueArb, (before, key, value) => {
        const row = before.get(key);
        if (row === undefined) return;
        expect(mergeFrame(before, { key, value, seq: row.seq }).kind).not.toBe('changed');
        const hint = rowsOf(mergeHints(before, { asOfSeq: row.seq, values: { [key]: value } }), before);
        expect(hint.get(key)).toEqual(row);
      }),
    );
  });
});
