import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contiguityProblem } from './event-run.js';
import { isPagedListCall, METHODS } from './methods.js';
import { NOTIFICATIONS } from './notifications.js';

const event = (seq: number) => ({ type: 'user/message', seq, time: seq, data: { content: `m${seq}` } });

describe('contiguityProblem', () => {
  it('is null exactly for the runs firstSeq, firstSeq + 1, …', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.array(fc.nat(1010), { maxLength: 12 }), (firstSeq, seqs) => {
        const contiguous = seqs.every((seq, index) => seq === firstSeq + index);
        expect(contiguityProblem(seqs.map(event), firstSeq) === null).toBe(contiguous);
      }),
    );
  });
});

describe('wire schemas', () => {
  const snapshot = (events: number[], firstSeq: number, cursor: number, asOfSeq = cursor - 1) => ({
    followId: 'f',
    generation: 1,
    header: { version: 1, id: 's', createdAt: 1, isSeeded: false },
    inheritedEventCount: 0,
    cursor,
    firstSeq,
    events: events.map(event),
    baseline: { asOfSeq, values: {} },
    live: false,
    busy: false,
  });

  it('a follow snapshot is valid exactly when its window is [firstSeq, cursor) and its baseline at cursor − 1', () => {
    fc.assert(
      fc.property(
        fc.nat(50),
        fc.nat(5),
        fc.integer({ min: -1, max: 2 }),
        fc.integer({ min: -1, max: 1 }),
        (firstSeq, length, cursorShift, asOfShift) => {
          const seqs = Array.from({ length }, (_, index) => firstSeq + index);
          const cursor = Math.max(0, firstSeq + length + cursorShift);
          const value = snapshot(seqs, firstSeq, cursor, cursor - 1 + asOfShift);
          const ok = cursor === firstSeq + length && asOfShift === 0;
          expect(METHODS['session.follow'].result.safeParse(value).success).toBe(ok);
        },
      ),
    );
  });

  it('results are checked, not stripped: a newer host may add fields; params are strict', () => {
    expect(METHODS['session.fork'].result.safeParse({ id: 's', extra: 1 }).success).toBe(true);
    expect(METHODS['session.fork'].params.safeParse({ id: 's', atSeq: 0, extra: 1 }).success).toBe(false);
  });

  it('an event and a projection value must be present (null is a value, a missing key is not)', () => {
    const address = { followId: 'f', generation: 1 };
    const projection = NOTIFICATIONS['follow.projection'];
    expect(projection.safeParse({ ...address, key: 'title', value: null, seq: 3 }).success).toBe(true);
    expect(projection.safeParse({ ...address, key: 'title', seq: 3 }).success).toBe(false);
    const events = NOTIFICATIONS['follow.events'];
    expect(events.safeParse({ ...address, events: [{ type: 'a', seq: 1, time: 0 }] }).success).toBe(false);
  });

  it('a live batch is contiguous from an integer seq', () => {
    const events = NOTIFICATIONS['follow.events'];
    const batch = (seqs: number[]) => ({ followId: 'f', generation: 1, events: seqs.map(event) });
    expect(events.safeParse(batch([4, 5, 6])).success).toBe(true);
    expect(events.safeParse(batch([])).success).toBe(true);
    expect(events.safeParse(batch([4, 6])).success).toBe(false);
    expect(events.safeParse(batch([0.5, 1.5])).success).toBe(false);
    expect(events.safeParse(batch([-1, 0])).success).toBe(false);
  });

  it('params schemas have a JSON Schema form (documentation and tool surfaces derive it)', () => {
    for (const [method, { params }] of Object.entries(METHODS)) {
      const json = z.toJSONSchema(params) as { type?: string; additionalProperties?: boolean };
      expect(json.type, method).toBe('object');
      expect(json.additionalProperties, method).toBe(false);
    }
  });
});

describe('session.list projectName', () => {
  const params = METHODS['session.list'].params;
  it('takes a folder name, pages, and refuses a name with a separator or an empty one', () => {
    expect(params.safeParse({ projectName: 'strand' }).success).toBe(true);
    expect(isPagedListCall({ projectName: 'strand' })).toBe(true);
    // Over 1,000 rows is the deprecated whole list's only: a filter makes the call a page.
    expect(params.safeParse({ projectName: 'strand', limit: 5_000 }).success).toBe(false);
    for (const projectName of ['', 'home/strand', 'C:\\strand', '/'])
      expect(params.safeParse({ projectName }).success).toBe(false);
    expect(METHODS['session.listSubscribe'].params.safeParse({ projectName: 'strand' }).success).toBe(true);
  });
});

describe('session.search projectName', () => {
  const params = METHODS['session.search'].params;
  it('takes a folder name beside the other filters, and refuses a name with a separator or an empty one', () => {
    expect(params.safeParse({ query: 'plover', projectName: 'strand' }).success).toBe(true);
    expect(
      params.safeParse({ query: 'plover', projectName: 'strand', cwd: '/w', harness: 'codex' }).success,
    ).toBe(true);
    for (const projectName of ['', 'home/strand', 'C:\\strand', '/', 'x'.repeat(1001)])
      expect(params.safeParse({ query: 'plover', projectName }).success).toBe(false);
  });
});
