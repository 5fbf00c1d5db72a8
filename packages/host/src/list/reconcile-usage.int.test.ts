import { persistenceWriter } from '@strand/persistence';
import { Session, SessionId, newSessionHeader, silentLogger } from '@strand/session';
import { openTempStack, type TempStack } from '@strand/stack/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { foldUnfoldedListHints } from './fold-hints.js';
import { reconcileListIndex } from './reconcile.js';

let stack: TempStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe('list reconcile and usage hours', () => {
  it('a row with hints but unknown usage (a cache from before the hours) is folded again, which writes them', async () => {
    stack = await openTempStack({ prefix: 'strand-reconcile-usage' });
    const header = newSessionHeader({ id: SessionId('old'), createdAt: 1_000 });
    const { incarnation } = await stack.persistence.create({ header });
    await new Session({
      header,
      incarnation,
      writer: persistenceWriter(stack.persistence, header.id),
    }).append([
      { type: 'assistant/message', data: { content: 'a', usage: { input: 1, output: 4 } }, time: 1_000 },
    ]);
    // As an older build left it: hints folded, no usage hours.
    stack.cache.listIndex!.clear();
    stack.cache.noteSession({ header, incarnation }, { asOfSeq: 0, values: { title: null } });
    const deps = { ...stack, logger: silentLogger };
    const { unfolded } = await reconcileListIndex(deps);
    expect(unfolded).toBe(1);
    expect(await foldUnfoldedListHints(deps)).toBe(1);
    const [indexed] = await stack.cache.listIndex!.usage({});
    expect(indexed?.byHour.map((hour) => hour.output)).toEqual([4]);
    expect((await reconcileListIndex(deps)).unfolded).toBe(0);
    expect(await foldUnfoldedListHints(deps)).toBe(0);
  });
});
