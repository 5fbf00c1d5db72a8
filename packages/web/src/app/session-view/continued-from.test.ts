import { describe, expect, it } from 'vitest';
import { readContinuedFrom } from './continued-from.js';

describe('readContinuedFrom', () => {
  it('reads the origin and harness of a known value, and nothing of any other', () => {
    expect(
      readContinuedFrom({ known: true, value: { session: 's-1', cut: 3, harness: 'codex', seq: 9 }, seq: 9 }),
    ).toEqual({ session: 's-1', harness: 'codex' });
    expect(readContinuedFrom({ known: false })).toBeUndefined();
    expect(readContinuedFrom({ known: true, value: null, seq: 0 })).toBeUndefined();
    expect(
      readContinuedFrom({ known: true, value: { session: '', harness: 'codex' }, seq: 0 }),
    ).toBeUndefined();
    expect(readContinuedFrom({ known: true, value: { session: 's', harness: 3 }, seq: 0 })).toBeUndefined();
  });
});
