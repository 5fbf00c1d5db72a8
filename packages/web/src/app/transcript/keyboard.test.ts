import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextRow, transcriptKey, type KeyPress } from './keyboard.js';

const press = (key: string, over: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  inField: false,
  onRow: true,
  ...over,
});

describe('transcript keys', () => {
  it('maps j/k, the arrows, Home/End, Enter on a row and Escape in a control', () => {
    expect(transcriptKey(press('j'))).toBe('next');
    expect(transcriptKey(press('ArrowDown'))).toBe('next');
    expect(transcriptKey(press('k'))).toBe('previous');
    expect(transcriptKey(press('ArrowUp'))).toBe('previous');
    expect(transcriptKey(press('Home'))).toBe('first');
    expect(transcriptKey(press('End'))).toBe('last');
    expect(transcriptKey(press('Enter'))).toBe('activate');
    expect(transcriptKey(press('Enter', { onRow: false }))).toBeUndefined();
    expect(transcriptKey(press('Escape', { onRow: false }))).toBe('to-row');
    expect(transcriptKey(press('Escape'))).toBeUndefined();
    expect(transcriptKey(press(' '))).toBeUndefined();
  });

  it('leaves typed text and modified keys alone', () => {
    for (const key of ['j', 'k', 'ArrowDown', 'Enter', 'End']) {
      expect(transcriptKey(press(key, { inField: true }))).toBeUndefined();
      expect(transcriptKey(press(key, { ctrlKey: true }))).toBeUndefined();
      expect(transcriptKey(press(key, { altKey: true }))).toBeUndefined();
      expect(transcriptKey(press(key, { metaKey: true }))).toBeUndefined();
    }
  });

  it('moves within the rows: never out of range, one step at a time, starting from the rows in view', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 50 }),
        fc.option(fc.nat({ max: 60 }), { nil: undefined }),
        fc.nat({ max: 60 }),
        fc.nat({ max: 60 }),
        (count, rawCurrent, a, b) => {
          const current = rawCurrent === undefined || count === 0 ? undefined : rawCurrent % count;
          const inView = { first: Math.min(a, b), last: Math.max(a, b) };
          for (const action of ['next', 'previous', 'first', 'last'] as const) {
            const to = nextRow(action, count, current, inView);
            if (count === 0) {
              expect(to).toBeUndefined();
              continue;
            }
            if (to !== undefined) {
              expect(to).toBeGreaterThanOrEqual(0);
              expect(to).toBeLessThan(count);
            }
            if (current !== undefined && action === 'next')
              expect(to).toBe(current + 1 < count ? current + 1 : undefined);
            if (current !== undefined && action === 'previous')
              expect(to).toBe(current > 0 ? current - 1 : undefined);
          }
          expect(nextRow('first', count, current, inView)).toBe(count === 0 ? undefined : 0);
          expect(nextRow('last', count, current, inView)).toBe(count === 0 ? undefined : count - 1);
        },
      ),
    );
  });
});
