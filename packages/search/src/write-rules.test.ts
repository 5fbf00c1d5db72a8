import { describe, expect, it } from 'vitest';
import { SessionSeq, type SessionEvent, type SessionId } from '@strand/session';
import type { SessionRow } from './session-rows.js';
import { afterBegin, indexedText, MAX_INDEXED_CHARS, planAppend, planBegin } from './write-rules.js';

const row = (over: Partial<SessionRow> = {}): SessionRow => ({
  sid: 7,
  sessionId: 's' as SessionId,
  incarnation: 'inc-1',
  revision: 'rev-1',
  cut: 4,
  durableCut: 4,
  ...over,
});

const event = (seq: number, text?: string): SessionEvent => ({
  type: text === undefined ? 'step/start' : 'user/message',
  seq: SessionSeq(seq),
  time: 0,
  data: text === undefined ? {} : { content: text, author: 'human' },
});

const textOf = (e: SessionEvent): string | undefined => (e.data as { content?: string }).content;

describe('planBegin', () => {
  it('keeps what another writer indexed from the same incarnation, whatever the plan expected', () => {
    expect(planBegin(row(), 'inc-1', { kind: 'keep' })).toEqual({ kind: 'keep' });
  });

  it('resets a row of another incarnation even when asked to keep, and on an explicit reset', () => {
    expect(planBegin(row(), 'inc-2', { kind: 'keep' })).toEqual({ kind: 'reset', incarnation: 'inc-2' });
    expect(planBegin(row(), 'inc-1', { kind: 'reset' })).toEqual({ kind: 'reset', incarnation: 'inc-1' });
    expect(afterBegin(row(), { kind: 'reset', incarnation: 'inc-2' })).toMatchObject({
      incarnation: 'inc-2',
      revision: null,
      cut: 0,
      durableCut: 0,
    });
  });

  it('truncates only rows indexed from memory, and is a no-op once they were replaced', () => {
    const warm = row({ cut: 9, durableCut: 4 });
    expect(planBegin(warm, 'inc-1', { kind: 'truncate' })).toEqual({ kind: 'truncate', from: 4 });
    expect(afterBegin(warm, { kind: 'truncate', from: 4 })).toMatchObject({ cut: 4, durableCut: 4 });
    // Another host already re-read them from disk: nothing left to drop.
    expect(planBegin(row({ cut: 9, durableCut: 9 }), 'inc-1', { kind: 'truncate' })).toEqual({
      kind: 'keep',
    });
  });
});

describe('planAppend', () => {
  it('skips events below the cut, so a batch delivered twice writes nothing the second time', () => {
    const events = [event(2, 'a'), event(3, 'b'), event(4, 'c'), event(5), event(6, 'd')];
    const plan = planAppend(row(), events, 'disk', 'rev-2', textOf);
    expect(plan.rows).toEqual([
      { seq: 4, text: 'c' },
      { seq: 6, text: 'd' },
    ]);
    expect(plan).toMatchObject({ events: 3, cut: 7, durableCut: 7, progressed: true, revision: 'rev-2' });
    const again = planAppend(row({ cut: 7, durableCut: 7 }), events, 'disk', 'rev-2', textOf);
    expect(again).toMatchObject({ rows: [], events: 0, progressed: false });
  });

  it('stops at a gap and then records no revision', () => {
    const plan = planAppend(row(), [event(4, 'x'), event(6, 'y')], 'disk', 'rev-2', textOf);
    expect(plan).toMatchObject({ events: 1, cut: 5, revision: undefined });
  });

  it('keeps memory rows out of the durable prefix, and disk rows above them too', () => {
    expect(planAppend(row(), [event(4, 'm')], 'memory', undefined, textOf)).toMatchObject({
      cut: 5,
      durableCut: 4,
    });
    expect(planAppend(row({ cut: 5 }), [event(5, 'd')], 'disk', 'rev-3', textOf)).toMatchObject({
      cut: 6,
      durableCut: 4,
      revision: undefined,
    });
  });

  it('refuses a seq beyond the engine range', () => {
    expect(() => planAppend(row(), [event(4, 'x')], 'disk', undefined, textOf, 3)).toThrow(
      expect.objectContaining({ code: 'SEARCH_INDEX_FAILED' }),
    );
  });
});

describe('indexedText', () => {
  it('caps text without splitting a surrogate pair and neutralizes highlight markers', () => {
    const long = 'a'.repeat(MAX_INDEXED_CHARS - 1) + '😀tail';
    const capped = indexedText(() => long, event(0, ''))!;
    expect(capped).toHaveLength(MAX_INDEXED_CHARS - 1);
    expect(indexedText(() => 'x\u0002y', event(0, ''))).toBe('x\uFFFDy');
  });

  it('treats a throwing extractor or blank text as no text', () => {
    expect(
      indexedText(
        () => {
          throw new Error('odd event');
        },
        event(0, ''),
      ),
    ).toBeUndefined();
    expect(indexedText(() => '  \n', event(0, ''))).toBeUndefined();
  });
});
