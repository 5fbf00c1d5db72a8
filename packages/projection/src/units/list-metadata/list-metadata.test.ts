import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldView, log } from '../../testing/events.js';
import { describeUnitLaws } from '../../testing/unit-laws.js';
import { lastActivityAt, LIST_METADATA_READS, listMetadataUnit } from './list-metadata.js';

describe('listMetadata unit', () => {
  it('is blank with no prompt until the first turn starts', () => {
    expect(foldView(listMetadataUnit, log(['session/title', { title: 'x' }]))).toEqual({
      blank: true,
      lastPromptAt: null,
    });
  });

  it('stops being blank at the first turn/start', () => {
    expect(foldView(listMetadataUnit, log(['turn/start', {}])).blank).toBe(false);
  });

  it('moves lastPromptAt only on a human user/message, to that event time', () => {
    const events = log(
      ['turn/start', {}],
      ['user/message', { content: 'hi', author: 'human' }], // time 1002
      ['user/message', { content: 'from parent', author: 'agent' }],
      ['user/message', { content: 'sys', author: 'system' }],
      ['assistant/message', { content: 'ok' }],
      // A command the person ran in the harness is no prompt (session/README.md).
      ['turn/start', {}],
      ['session/command', { name: 'compact' }],
      ['session/command-output', { text: 'Compacted', stream: 'stdout' }],
    );
    expect(foldView(listMetadataUnit, events)).toEqual({ blank: false, lastPromptAt: 1002 });
  });
});

describeUnitLaws(listMetadataUnit, LIST_METADATA_READS);

describe('lastActivityAt (the list order key)', () => {
  it('is the last prompt when the view knows a finite one, else the creation time, whatever arrived', () => {
    fc.assert(
      fc.property(fc.integer(), fc.anything(), (createdAt, view) => {
        const at = lastActivityAt(createdAt, view);
        const prompt = (view as { lastPromptAt?: unknown } | null)?.lastPromptAt;
        const known =
          typeof view === 'object' && view !== null && typeof prompt === 'number' && Number.isFinite(prompt);
        expect(at).toBe(known ? prompt : createdAt);
      }),
    );
    expect(lastActivityAt(5, { lastPromptAt: 9 })).toBe(9);
    expect(lastActivityAt(5, { lastPromptAt: null })).toBe(5);
    expect(lastActivityAt(5, { lastPromptAt: Number.NaN })).toBe(5);
    expect(lastActivityAt(5, undefined)).toBe(5);
  });
});
