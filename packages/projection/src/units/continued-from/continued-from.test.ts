import { describe, expect, it } from 'vitest';
import { foldView, log } from '../../testing/events.js';
import { describeUnitLaws } from '../../testing/unit-laws.js';
import { CONTINUED_FROM_READS, continuedFromUnit } from './continued-from.js';

describe('continuedFrom unit', () => {
  it('is null for a session that continues no export', () => {
    expect(
      foldView(
        continuedFromUnit,
        log(['turn/start', {}], ['user/message', { content: 'hi', author: 'human' }]),
      ),
    ).toBeNull();
  });

  it('names the origin, its cut, the harness and where the exported prefix ends', () => {
    const events = log(
      ['turn/start', {}],
      ['user/message', { content: 'exported', author: 'human' }],
      ['session/continued-from', { session: 's-origin', cut: 7, harness: 'claude-code' }],
      ['user/message', { content: 'continued', author: 'human' }],
    );
    expect(foldView(continuedFromUnit, events)).toEqual({
      session: 's-origin',
      cut: 7,
      harness: 'claude-code',
      seq: events[2]!.seq,
    });
  });

  it('keeps the first one; a later or malformed one changes nothing', () => {
    const events = log(
      ['session/continued-from', { session: 's-a', cut: 1, harness: 'codex' }],
      ['session/continued-from', { session: 's-b', cut: 2, harness: 'gemini' }],
    );
    expect(foldView(continuedFromUnit, events)).toMatchObject({ session: 's-a' });
    expect(
      foldView(continuedFromUnit, log(['session/continued-from', { session: 4, cut: 1, harness: 'x' }])),
    ).toBeNull();
    expect(
      foldView(continuedFromUnit, log(['session/continued-from', { session: 's', cut: -1, harness: 'x' }])),
    ).toBeNull();
  });
});

describeUnitLaws(continuedFromUnit, CONTINUED_FROM_READS);
