import {
  persistenceWriter,
  type JsonlSessionPersistence,
  type SessionPreparations,
} from '@strand/persistence';
import type { ProjectionRegistry } from '@strand/projection';
import type { ProjectionCache } from '@strand/projection-cache';
import { openTempStack } from '@strand/stack/testing';
import {
  Session,
  SessionId,
  newSessionHeader,
  type SessionEventInput,
  type SessionStore,
} from '@strand/session';
import type { ResolutionHooks, SessionQuery } from '../session-query.js';

/** A real query stack over temp files, for the query package's integration tests. */
export interface QueryFixture {
  readonly root: string;
  readonly persistence: JsonlSessionPersistence;
  readonly preparations: SessionPreparations;
  readonly store: SessionStore;
  readonly registry: ProjectionRegistry;
  readonly cache: ProjectionCache;
  readonly query: SessionQuery;
  readonly hooks: ResolutionHooks;
  /** Writes a stored (cold) session with `turns` closed turns and a title. */
  storedSession(id: string, turns: number, extra?: readonly SessionEventInput[]): Promise<Session>;
  close(): Promise<void>;
}

export function turn(n: number): SessionEventInput[] {
  return [
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { content: `prompt number ${n}`, author: 'human' } },
    { type: 'assistant/message', data: { content: `answer ${n}`, usage: { input: 10, output: 5 } } },
    { type: 'turn/end', data: { reason: 'completed' } },
  ];
}

export async function queryFixture(options: { withCache?: boolean } = {}): Promise<QueryFixture> {
  const hooks: ResolutionHooks = {};
  const stack = await openTempStack({
    prefix: 'strand-query',
    queryHooks: hooks,
    ...(options.withCache === false ? { queryUsesCache: false } : {}),
  });
  const { root, jsonl: persistence, preparations, store, registry, cache, query } = stack;
  return {
    root,
    persistence,
    preparations,
    store,
    registry,
    cache,
    query,
    hooks,
    async storedSession(id, turns, extra = []) {
      const sid = SessionId(id);
      const header = newSessionHeader({ id: sid, createdAt: 1_000 });
      const { incarnation } = await persistence.create({ header });
      const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, sid) });
      await session.append({ type: 'session/title', data: { title: `Title of ${id}` } });
      for (let n = 0; n < turns; n++) await session.append(turn(n));
      if (extra.length > 0) await session.append(extra);
      return session;
    },
    close: () => stack.close(),
  };
}
