import { describe, expect, it } from 'vitest';
import { checkResult } from './result-check.js';

describe('checkResult', () => {
  it('accepts a result of its method’s shape and returns the value received (extra fields kept)', () => {
    const value = { sessions: [], addedByANewerHost: 1 };
    const checked = checkResult('session.list', value);
    expect(checked.kind === 'valid' && checked.result).toBe(value);
  });

  it.each([
    ['session.list', { sessions: [{ id: 's' }] }, 'CLIENT_RESULT_INVALID', 'sessions.0.header'],
    ['session.rename', { seq: -1 }, 'CLIENT_RESULT_INVALID', 'seq Too small'],
    ['catalog.models', null, 'CLIENT_RESULT_INVALID', '(result) Invalid input'],
    [
      'session.page',
      {
        firstSeq: 3,
        cursor: 9,
        events: [
          { type: 'a', seq: 3, time: 0, data: null },
          { type: 'a', seq: 5, time: 0, data: null },
        ],
      },
      'CLIENT_PAGE_INVALID',
      'expected seq 4, got 5',
    ],
    ['session.follow', { followId: 'f' }, 'CLIENT_SNAPSHOT_INVALID', 'generation'],
  ] as const)('refuses a malformed %s result with %s', (method, value, code, reason) => {
    const checked = checkResult(method, value);
    expect(checked.kind).toBe('invalid');
    if (checked.kind === 'invalid') {
      expect(checked.error.code).toBe(code);
      expect(checked.error.message).toContain(reason);
    }
  });
});
