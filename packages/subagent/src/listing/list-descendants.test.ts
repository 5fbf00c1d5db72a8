import { ProjectionRegistry } from '@strand/projection';
import type { CorpusRow } from '@strand/query';
import { Session, SessionId, SessionStore, newSessionHeader, type SessionHeader } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { descriptorEvent } from '../descriptor.js';
import { registerSubagentUnits } from '../projection/register.js';
import { listDescendants } from './list-descendants.js';
import type { SubagentListingContext } from './types.js';

/**
 * In-memory fakes (in addition to the real-stack tests): every session live, so the ladder stays
 * on rung 1 and trees of any shape — very deep, or with cyclic headers no real writer would make —
 * cost no I/O.
 */
async function liveTree(headers: readonly SessionHeader[]): Promise<SubagentListingContext> {
  const store = new SessionStore();
  const registry = new ProjectionRegistry();
  registerSubagentUnits(registry);
  registry.bindStore(store);
  for (const header of headers) {
    const session = new Session({ header });
    store.attach(session);
    await session.append(descriptorEvent({ version: 2, mode: 'one-shot', label: header.id }));
  }
  const rows = (): CorpusRow[] =>
    store.list().map((s) => ({
      header: s.header,
      live: true,
      persisted: false,
      incarnation: undefined,
      revision: undefined,
      storedBytes: undefined,
    }));
  return {
    sessionProjections: registry,
    sessions: store,
    sessionQuery: {
      listSessions: () => Promise.resolve(rows()),
      observeSession: () => Promise.reject(new Error('a live tree needs no observation')),
    },
  };
}

const sub = (id: string, parent: string, createdAt = 0): SessionHeader =>
  newSessionHeader({ id: SessionId(id), parentSession: SessionId(parent), origin: 'subagent', createdAt });

describe('listDescendants over in-memory fakes', () => {
  it('is iterative: a chain 20,000 deep is listed in pre-order without exhausting the call stack', async () => {
    const depth = 20_000;
    const headers = Array.from({ length: depth }, (_, i) => sub(`n${i}`, i === 0 ? 'root' : `n${i - 1}`));
    const rows = await listDescendants(await liveTree(headers), SessionId('root'));
    expect(rows).toHaveLength(depth);
    expect(rows.at(-1)).toMatchObject({
      id: `n${depth - 1}`,
      parentId: `n${depth - 2}`,
      depth,
      hasChildren: false,
    });
    expect(rows.every((row, i) => row.depth === i + 1)).toBe(true);
  });

  it('is cycle-safe: headers that name each other as parents are listed once each, the root never', async () => {
    const ctx = await liveTree([sub('a', 'b'), sub('b', 'a'), sub('c', 'b', 1), sub('self', 'self')]);
    expect((await listDescendants(ctx, SessionId('a'))).map((r) => [r.id, r.parentId, r.depth])).toEqual([
      ['b', 'a', 1],
      ['c', 'b', 2],
    ]);
    expect(await listDescendants(ctx, SessionId('self'))).toEqual([]);
  });
});
