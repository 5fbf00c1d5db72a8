import { describe, expect, it } from 'vitest';
import { persistenceWriter } from '@strand/persistence';
import { recordingLogger, turnEvents } from '@strand/projection-cache/testing';
import { newSessionHeader, Session, SessionId } from '@strand/session';
import { openTempStack, type TempStack } from './testing/index.js';

/*
 * The stack's persistence keeps the list index in step with creates and deletes: a row once the
 * session is durable (never for a lazy create nobody wrote), none once it is deleted.
 */

async function listed(stack: TempStack, id: string): Promise<boolean> {
  return (await stack.cache.listIndex!.rows([id])).length === 1;
}

async function withStack(body: (stack: TempStack) => Promise<void>): Promise<void> {
  const stack = await openTempStack({ prefix: 'strand-listing-test' });
  try {
    await body(stack);
  } finally {
    await stack.close();
  }
}

describe('the stack persistence keeps list rows', () => {
  it('a lazy create is listed at its first append, not before', () =>
    withStack(async (stack) => {
      const header = newSessionHeader({ id: SessionId('lazy') });
      const { incarnation } = await stack.persistence.create({ header });
      expect(await listed(stack, 'lazy')).toBe(false);
      const session = new Session({
        header,
        incarnation,
        writer: persistenceWriter(stack.persistence, header.id),
      });
      await session.append({ type: 'user/message', data: { content: 'hi', author: 'human' } });
      const [row] = await stack.cache.listIndex!.rows(['lazy']);
      expect(row).toEqual({ header, incarnation });
    }));

  it('a create that writes at once (materialized, or a seeded prefix) is listed at once; a delete drops it', () =>
    withStack(async (stack) => {
      await stack.persistence.create({ header: newSessionHeader({ id: SessionId('m') }), materialize: true });
      expect(await listed(stack, 'm')).toBe(true);
      await stack.persistence.create({
        header: { ...newSessionHeader({ id: SessionId('f') }), isSeeded: true },
        inheritedEvents: turnEvents,
      });
      expect(await listed(stack, 'f')).toBe(true);
      await stack.persistence.delete(SessionId('m'));
      expect(await listed(stack, 'm')).toBe(false);
    }));

  it('a list row that cannot be written is logged, and the create still succeeds', async () => {
    const logger = recordingLogger();
    const stack = await openTempStack({ prefix: 'strand-listing-test', logger });
    try {
      stack.cache.close();
      const header = newSessionHeader({ id: SessionId('c') });
      await expect(stack.persistence.create({ header, materialize: true })).resolves.toMatchObject({
        incarnation: expect.any(String) as unknown,
      });
      expect(logger.entries.map((e) => e.message)).toContain(
        'a new session got no list row; the next open reconciles it',
      );
    } finally {
      await stack.close();
    }
  });
});
