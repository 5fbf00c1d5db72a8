import type { FollowSnapshot } from '@strand/protocol';
import { describe, expect, it } from 'vitest';
import { checkResult } from '../connection/result-check.js';
import { snapshotSessionProblem } from './snapshot-check.js';

function snapshot(overrides: Partial<Record<keyof FollowSnapshot, unknown>> = {}): unknown {
  return {
    followId: 'f1',
    generation: 1,
    header: { version: 1, id: 's', createdAt: 5, isSeeded: false },
    inheritedEventCount: 0,
    cursor: 4,
    firstSeq: 2,
    events: [
      { type: 'a', seq: 2, time: 1, data: null },
      { type: 'b', seq: 3, time: 2, data: {} },
    ],
    baseline: { asOfSeq: 3, values: { title: null } },
    live: true,
    busy: false,
    ...overrides,
  };
}

describe('a follow snapshot, checked once where it enters (the connection)', () => {
  it('accepts a snapshot whose events are exactly [firstSeq, cursor) and whose baseline is at cursor − 1', () => {
    expect(checkResult('session.follow', snapshot()).kind).toBe('valid');
  });

  it('accepts the snapshot of an empty log', () => {
    expect(
      checkResult(
        'session.follow',
        snapshot({ cursor: 0, firstSeq: 0, events: [], baseline: { asOfSeq: -1, values: {} } }),
      ).kind,
    ).toBe('valid');
  });

  it.each([
    [
      'a window short of the cursor',
      snapshot({ cursor: 5, baseline: { asOfSeq: 4, values: {} } }),
      'expected 3 events to reach cursor 5, got 2',
    ],
    [
      'non-contiguous events',
      snapshot({
        events: [
          { type: 'a', seq: 2, time: 1, data: null },
          { type: 'b', seq: 4, time: 2, data: null },
        ],
      }),
      'expected seq 3, got 4',
    ],
    [
      'a baseline at another cut',
      snapshot({ baseline: { asOfSeq: 2, values: {} } }),
      'expected baseline asOfSeq 3, got 2',
    ],
    ['firstSeq beyond the cursor', snapshot({ firstSeq: 5 }), 'firstSeq 5 is beyond cursor 4'],
    ['a followId that is not a string', snapshot({ followId: 3 }), 'followId Invalid input: expected string'],
    [
      'a malformed event',
      snapshot({
        events: [
          { type: 'a', seq: 2, time: 1 },
          { type: 'b', seq: 3, time: 2, data: null },
        ],
      }),
      'events.0.data data is missing',
    ],
    ['a negative cursor', snapshot({ cursor: -1 }), 'cursor Too small'],
    [
      'a header without isSeeded',
      snapshot({ header: { version: 1, id: 's', createdAt: 5 } }),
      'header.isSeeded Invalid input',
    ],
  ])('refuses %s with CLIENT_SNAPSHOT_INVALID', (_name, value, reason) => {
    const result = checkResult('session.follow', value);
    expect(result.kind).toBe('invalid');
    if (result.kind === 'invalid') {
      expect(result.error.code).toBe('CLIENT_SNAPSHOT_INVALID');
      expect(result.error.message).toContain(reason);
    }
  });

  it('refuses what is not an object', () => {
    expect(checkResult('session.follow', null).kind).toBe('invalid');
  });

  it("keeps the value received: a newer host's extra fields are not stripped", () => {
    const value = snapshot({
      header: { version: 1, id: 's', createdAt: 5, isSeeded: false, tags: ['from a newer host'] },
    });
    const result = checkResult('session.follow', value);
    expect(result.kind === 'valid' && result.result).toBe(value);
  });
});

describe('snapshotSessionProblem', () => {
  it('passes a snapshot of the followed session, refuses one of another', () => {
    const ours = checkResult('session.follow', snapshot());
    const theirs = checkResult(
      'session.follow',
      snapshot({ header: { version: 1, id: 'other', createdAt: 5, isSeeded: false } }),
    );
    if (ours.kind !== 'valid' || theirs.kind !== 'valid') throw new Error('fixtures must be valid snapshots');
    expect(snapshotSessionProblem(ours.result, 's')).toBeNull();
    expect(snapshotSessionProblem(theirs.result, 's')).toContain('expected header id s, got other');
  });
});
