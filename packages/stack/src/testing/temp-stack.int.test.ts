import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJsonlPersistence, persistenceWriter, type SessionPersistence } from '@strand/persistence';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { openTempStack } from './temp-stack.js';

let folder: string;

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'strand-stack-test-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

async function stored(persistence: SessionPersistence, id: string): Promise<SessionId> {
  const sid = SessionId(id);
  const header = newSessionHeader({ id: sid });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, sid) });
  await session.append({ type: 'user/message', data: { content: 'hello', author: 'human' } });
  return sid;
}

describe('openTempStack', () => {
  it('removes the temp folder it made when closed', async () => {
    const stack = await openTempStack({ prefix: 'strand-stack-test' });
    await stored(stack.persistence, 'a');
    await stack.close();
    expect(existsSync(stack.root)).toBe(false);
  });

  it('keeps its logs in a folder it is given and leaves that folder when closed', async () => {
    const root = path.join(folder, 'data'); // not there yet: the stack creates it
    const stack = await openTempStack({ root });
    expect(stack.root).toBe(root);
    const id = await stored(stack.persistence, 'a');
    await stack.close();
    const reopened = await openJsonlPersistence({ root });
    try {
      expect((await reopened.list()).map((s) => s.header.id)).toEqual([id]);
    } finally {
      await reopened.close();
    }
  });
});

describe('composeBaseStack preparations', () => {
  const decodesOfTwoReads = async (capacity: number | undefined): Promise<number> => {
    const stack = await openTempStack(capacity === undefined ? {} : { preparations: { capacity } });
    try {
      const id = await stored(stack.persistence, 'a');
      for (let i = 0; i < 2; i++) (await stack.preparations.borrow(id)).release();
      return stack.preparations.stats().decodes;
    } finally {
      await stack.close();
    }
  };

  it('keep a released cold read for reuse by default; capacity 0 decodes every read', async () => {
    expect(await decodesOfTwoReads(undefined)).toBe(1);
    expect(await decodesOfTwoReads(0)).toBe(2);
  });
});
