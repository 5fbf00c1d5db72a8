import type { JsonlSessionPersistence, SessionPreparations } from '@strand/persistence';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import type { CacheWritePolicy, ProjectionCache } from '@strand/projection-cache';
import type { SessionQuery } from '@strand/query';
import { openTempStack } from '@strand/stack/testing';
import { SessionId, type SessionEvent, type SessionStore } from '@strand/session';
import { registerSubagentUnits } from '@strand/subagent';
import { AgentController } from '../controller/agent-controller.js';
import type { AgentControllerOptions } from '../controller/options.js';

/** A real stack over a temp folder: JSONL persistence, registry with every unit, cache, policy, query, controller. */
export interface AgentFixture {
  readonly root: string;
  readonly persistence: JsonlSessionPersistence;
  readonly preparations: SessionPreparations;
  readonly store: SessionStore;
  readonly registry: ProjectionRegistry;
  readonly cache: ProjectionCache;
  readonly policy: CacheWritePolicy;
  readonly query: SessionQuery;
  readonly controller: AgentController;
  /** Errors the controller reported instead of throwing. */
  readonly reported: unknown[];
  /** The stored events of a session (a non-mutating read). */
  stored(id: string): Promise<readonly SessionEvent[]>;
  close(): Promise<void>;
}

export type FixtureOptions = Partial<
  Omit<AgentControllerOptions, 'persistence' | 'preparations' | 'store' | 'registry' | 'query'>
>;

export async function agentFixture(options: FixtureOptions = {}): Promise<AgentFixture> {
  const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
  registerSubagentUnits(registry);
  const stack = await openTempStack({ prefix: 'strand-agent', registry });
  const { root, jsonl: persistence, preparations, store, cache, cacheWrites: policy, query } = stack;
  const reported: unknown[] = [];
  let next = 0;
  const controller = new AgentController({
    persistence,
    preparations,
    store,
    registry,
    query,
    cacheWrites: policy,
    cache,
    newSessionId: () => SessionId(`s-${++next}`),
    reportError: (error) => reported.push(error),
    ...options,
  });
  return {
    root,
    persistence,
    preparations,
    store,
    registry,
    cache,
    policy,
    query,
    controller,
    reported,
    stored: async (id) => (await persistence.inspect(SessionId(id))).events,
    async close() {
      await controller.close();
      await stack.close();
    },
  };
}

/** The event types of a log, for sequence assertions. */
export function typesOf(events: readonly SessionEvent[]): string[] {
  return events.map((event) => event.type);
}
