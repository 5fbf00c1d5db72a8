import {
  persistenceWriter,
  type JsonlSessionPersistence,
  type SessionPreparations,
} from '@strand/persistence';
import { BUILT_IN_UNITS, ProjectionRegistry, type AnyProjectionUnit } from '@strand/projection';
import type { CacheWritePolicy, ProjectionCache } from '@strand/projection-cache';
import type { SessionQuery } from '@strand/query';
import { openTempStack } from '@strand/stack/testing';
import {
  Session,
  SessionId,
  type SessionStore,
  newSessionHeader,
  planFork,
  type NewSessionHeader,
  type SessionEventInput,
} from '@strand/session';
import { SUBAGENT_DESCRIPTOR_EVENT, descriptorEvent, type SubagentDescriptor } from '../descriptor.js';
import type { SubagentListingContext } from '../listing/types.js';
import { registerSubagentUnits } from '../projection/register.js';
import { CountingPersistence } from '@strand/test-support';
import { ObservedQuery } from './observed-query.js';

/** A small closed turn (4 events) with times one ms apart from `time`. */
export function fixtureTurn(n: number, time = 1_000 + n * 10): SessionEventInput[] {
  return [
    { type: 'turn/start', data: {}, time },
    { type: 'user/message', data: { content: `task ${n}`, author: 'agent' }, time: time + 1 },
    {
      type: 'assistant/message',
      data: { content: `done ${n}`, usage: { input: 10, output: 2 } },
      time: time + 2,
    },
    { type: 'turn/end', data: { reason: 'completed' }, time: time + 3 },
  ];
}

/** The descriptor of a child: a valid v2 descriptor, raw event data (corrupt, unknown version…), or none. */
export type DescriptorSpec = SubagentDescriptor | { readonly raw: unknown } | null;

export interface ChildSpec {
  readonly id: string;
  readonly parent: string;
  /** `live`: attached (running). `cold`: stored only, no cache row. `cached`: ran live, then detached, so the write policy left a cache row. */
  readonly state: 'live' | 'cold' | 'cached';
  readonly createdAt?: number;
  /** Default: continuable, labelled `label-<id>`. */
  readonly descriptor?: DescriptorSpec;
  readonly turns?: number;
  /** Events after the descriptor and the turns. */
  readonly extra?: readonly SessionEventInput[];
  /** Seed the child from another session's log (a fork prefix) at `cut` (default: its whole log). */
  readonly seed?: { readonly from: Session; readonly cut?: number };
  readonly header?: Pick<NewSessionHeader, 'cwd' | 'agentPreset' | 'delegationDepth'>;
}

export interface ListingStack {
  readonly root: string;
  readonly jsonl: JsonlSessionPersistence;
  /** What every reader goes through: counts body reads. */
  readonly persistence: CountingPersistence;
  readonly preparations: SessionPreparations;
  readonly store: SessionStore;
  readonly registry: ProjectionRegistry;
  readonly cache: ProjectionCache;
  readonly policy: CacheWritePolicy;
  readonly query: SessionQuery;
  /** The query the contexts use: in-flight tracking and fault injection. */
  readonly observed: ObservedQuery;
  /** The full composition, the projection cache included. */
  readonly ctx: SubagentListingContext;
  /** The same without the optional cache. */
  readonly ctxWithoutCache: SubagentListingContext;
  child(spec: ChildSpec): Promise<Session>;
  /** An ordinary (non-subagent) session; stored, and attached when `live`. */
  ordinary(
    id: string,
    options?: { live?: boolean; turns?: number; parentSession?: string; createdAt?: number },
  ): Promise<Session>;
  /** Detaches a live session and waits for its final cache row. */
  settle(session: Session): Promise<void>;
  resetCounts(): void;
  close(): Promise<void>;
}

/**
 * A real listing composition over temp files: JSONL+zstd persistence (wrapped to count body
 * reads), the preparation layer, the live store, a registry with the built-in and subagent units
 * (plus `units`), an in-memory SQLite projection cache fed by the real write policy, and the real
 * query service.
 */
export async function listingStack(
  options: { units?: readonly AnyProjectionUnit[] } = {},
): Promise<ListingStack> {
  const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS, reportError: () => undefined });
  registerSubagentUnits(registry);
  for (const unit of options.units ?? []) registry.register(unit);
  let counting: CountingPersistence | undefined;
  const base = await openTempStack({
    prefix: 'strand-subagent',
    registry,
    wrapPersistence: (inner) => (counting = new CountingPersistence(inner)),
  });
  if (counting === undefined) throw new Error('the temp stack did not wrap its persistence');
  const persistence = counting;
  const { root, jsonl, preparations, store, cache, cacheWrites: policy, query } = base;
  const observed = new ObservedQuery(query);
  const ctxWithoutCache: SubagentListingContext = {
    sessionProjections: registry,
    sessions: store,
    sessionQuery: observed,
  };
  const ctx: SubagentListingContext = { ...ctxWithoutCache, sessionProjectionCache: cache };
  let clock = 1_000;

  async function write(
    header: ReturnType<typeof newSessionHeader>,
    batches: readonly (readonly SessionEventInput[])[],
    live: boolean,
    seed?: ReturnType<typeof planFork>,
  ): Promise<Session> {
    const { incarnation } = await persistence.create({
      header,
      ...(seed === undefined ? {} : { inheritedEvents: seed.events }),
    });
    const session = new Session({
      header,
      incarnation,
      writer: persistenceWriter(persistence, header.id),
      ...(seed === undefined ? {} : { events: seed.events, inheritedEventCount: seed.inheritedEventCount }),
    });
    if (live) store.attach(session);
    // One append per batch: several frames, so a damaged middle frame is corruption, not a torn tail.
    for (const batch of batches) if (batch.length > 0) await session.append(batch);
    return session;
  }

  const stack: ListingStack = {
    root,
    jsonl,
    persistence,
    preparations,
    store,
    registry,
    cache,
    policy,
    query,
    observed,
    ctx,
    ctxWithoutCache,
    async child(spec) {
      const init: NewSessionHeader = {
        id: SessionId(spec.id),
        createdAt: spec.createdAt ?? (clock += 10),
        parentSession: SessionId(spec.parent),
        origin: 'subagent',
        delegationDepth: 1,
        ...spec.header,
      };
      const seed =
        spec.seed === undefined
          ? undefined
          : planFork(
              spec.seed.from.id,
              spec.seed.from.events,
              spec.seed.cut ?? spec.seed.from.events.length,
              init,
            );
      const header = seed?.header ?? newSessionHeader(init);
      const descriptor =
        spec.descriptor === undefined
          ? { version: 2 as const, mode: 'continuable' as const, label: `label-${spec.id}` }
          : spec.descriptor;
      const batches: SessionEventInput[][] = [];
      if (descriptor !== null) {
        batches.push([
          'raw' in descriptor
            ? { type: SUBAGENT_DESCRIPTOR_EVENT, data: descriptor.raw }
            : descriptorEvent(descriptor),
        ]);
      }
      for (let n = 0; n < (spec.turns ?? 1); n++) batches.push(fixtureTurn(n));
      for (const event of spec.extra ?? []) batches.push([event]);
      const session = await write(header, batches, spec.state !== 'cold', seed);
      if (spec.state === 'cached') await stack.settle(session);
      return session;
    },
    async ordinary(id, opts = {}) {
      const header = newSessionHeader({
        id: SessionId(id),
        createdAt: opts.createdAt ?? (clock += 10),
        ...(opts.parentSession === undefined ? {} : { parentSession: SessionId(opts.parentSession) }),
      });
      const batches: SessionEventInput[][] = [];
      for (let n = 0; n < (opts.turns ?? 1); n++) batches.push(fixtureTurn(n));
      return write(header, batches, opts.live === true);
    },
    async settle(session) {
      store.detach(session);
      await policy.drain();
    },
    resetCounts() {
      persistence.resetCounts();
      observed.reset();
    },
    async close() {
      await base.close();
    },
  };
  return stack;
}
