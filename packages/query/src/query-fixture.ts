import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  SessionPreparations,
  openJsonlPersistence,
  persistenceWriter,
  type JsonlSessionPersistence,
} from '@strand/persistence';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { ProjectionCache } from '@strand/projection-cache';
import { Session, SessionId, SessionStore, newSessionHeader, type SessionEventInput } from '@strand/session';
import { SessionQuery, type ResolutionHooks } from './session-query.js';

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
  const root = mkdtempSync(path.join(tmpdir(), 'strand-query-'));
  const persistence = await openJsonlPersistence({ root });
  const preparations = new SessionPreparations(persistence);
  const store = new SessionStore();
  const registry = new ProjectionRegistry();
  for (const unit of BUILT_IN_UNITS) registry.register(unit);
  const cache = ProjectionCache.open({ path: ':memory:', registry });
  const hooks: ResolutionHooks = {};
  const query = new SessionQuery({
    persistence,
    preparations,
    store,
    registry,
    ...(options.withCache === false ? {} : { cache }),
    hooks,
  });
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
    async close() {
      query.close();
      cache.close();
      await persistence.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
