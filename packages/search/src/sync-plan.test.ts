import { describe, expect, it } from 'vitest';
import type { SessionId } from '@strand/session';
import type { SessionRow } from './session-rows.js';
import { planLiveSync, planPersistedSync } from './sync-plan.js';

const row = (over: Partial<SessionRow> = {}): SessionRow => ({
  sid: 1,
  sessionId: 's' as SessionId,
  incarnation: 'inc-1',
  revision: 'rev-1',
  cut: 10,
  durableCut: 10,
  ownFrom: 0,
  ...over,
});

describe('planPersistedSync', () => {
  it('reads a new session or a new incarnation from 0, resetting', () => {
    expect(planPersistedSync(undefined, { incarnation: 'inc-1', revision: 'r' })).toEqual({
      kind: 'read-suffix',
      from: 0,
      start: 'reset',
    });
    expect(planPersistedSync(row(), { incarnation: 'inc-2', revision: 'rev-1' })).toEqual({
      kind: 'read-suffix',
      from: 0,
      start: 'reset',
    });
  });

  it('skips an unchanged revision and reads only the suffix of a changed one', () => {
    expect(planPersistedSync(row(), { incarnation: 'inc-1', revision: 'rev-1' })).toEqual({
      kind: 'unchanged',
    });
    expect(planPersistedSync(row(), { incarnation: 'inc-1', revision: 'rev-2' })).toEqual({
      kind: 'read-suffix',
      from: 10,
      start: 'keep',
    });
  });

  it('re-reads from the durable cut what was indexed from memory, even at an equal revision', () => {
    expect(
      planPersistedSync(row({ cut: 14, durableCut: 10 }), { incarnation: 'inc-1', revision: 'rev-1' }),
    ).toEqual({
      kind: 'read-suffix',
      from: 10,
      start: 'truncate',
    });
  });
});

describe('planLiveSync', () => {
  it('indexes memory beyond the cut, or nothing when caught up', () => {
    expect(planLiveSync(row(), { incarnation: 'inc-1', length: 12 })).toEqual({
      kind: 'index-memory',
      reset: false,
    });
    expect(planLiveSync(row(), { incarnation: 'inc-1', length: 10 })).toEqual({ kind: 'unchanged' });
  });

  it('resets for a new session, another incarnation, or a log shorter than the cut', () => {
    expect(planLiveSync(undefined, { incarnation: null, length: 0 })).toEqual({
      kind: 'index-memory',
      reset: true,
    });
    expect(planLiveSync(row(), { incarnation: null, length: 12 })).toEqual({
      kind: 'index-memory',
      reset: true,
    });
    expect(planLiveSync(row(), { incarnation: 'inc-1', length: 9 })).toEqual({
      kind: 'index-memory',
      reset: true,
    });
  });
});
