import { describe, expect, it } from 'vitest';
import { foldView, log } from '../../testing/events.js';
import { describeUnitLaws } from '../../testing/unit-laws.js';
import { TITLE_READS, titleUnit } from './title.js';

describe('title unit', () => {
  it('is null before any title', () => {
    expect(foldView(titleUnit, log(['turn/start', {}]))).toBeNull();
  });

  it('is last-wins over session/title', () => {
    expect(
      foldView(
        titleUnit,
        log(['session/title', { title: 'a' }], ['turn/start', {}], ['session/title', { title: 'b' }]),
      ),
    ).toBe('b');
  });

  it('resets to null on a corrupt session/title', () => {
    expect(
      foldView(titleUnit, log(['session/title', { title: 'a' }], ['session/title', { title: 3 }])),
    ).toBeNull();
  });
});

describeUnitLaws(titleUnit, TITLE_READS);
