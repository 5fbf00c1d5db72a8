import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  openJsonlPersistence,
  persistenceWriter,
  type JsonlSessionPersistence,
  type SessionPersistence,
} from '@strand/persistence';
import {
  newSessionHeader,
  planFork,
  Session,
  SessionId,
  SessionStore,
  type SessionEventInput,
  type SessionHeader,
} from '@strand/session';
import { CountingPersistence } from '@strand/test-support';
import type { SearchSources } from '../types.js';

/** A real JSONL persistence in a temp folder, a live store, and the counting view the index reads through. */
export interface TestCorpus {
  readonly persistence: JsonlSessionPersistence;
  readonly store: SessionStore;
  readonly reads: ReadCounter;
  /** The sources to hand the index: counted persistence + the live store. */
  readonly sources: SearchSources;
  readonly root: string;
  dispose(): Promise<void>;
}

/** What the index read through `sources.persistence` (the tests' one `CountingPersistence`). */
export type ReadCounter = Pick<CountingPersistence, 'readFromCalls' | 'eventsRead' | 'lists'> & {
  reset(): void;
};

export async function openTestCorpus(): Promise<TestCorpus> {
  const root = mkdtempSync(path.join(tmpdir(), 'strand-search-'));
  const persistence = await openJsonlPersistence({ root });
  const store = new SessionStore();
  const counting = new CountingPersistence(persistence);
  // A view, not a copy: the counts are the wrapper's own fields, read when the test asks.
  const reads: ReadCounter = {
    get readFromCalls() {
      return counting.readFromCalls;
    },
    get eventsRead() {
      return counting.eventsRead;
    },
    get lists() {
      return counting.lists;
    },
    reset: () => counting.resetCounts(),
  };
  return {
    persistence,
    store,
    reads,
    sources: { persistence: counting, live: store },
    root,
    async dispose() {
      await persistence.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A header created at a fixed time (default 1,700,000,000,000 ms), so session order is the test's. */
export const searchTestHeader = (id: string, createdAt = 1_700_000_000_000): SessionHeader =>
  newSessionHeader({ id: SessionId(id), createdAt });

/** A user message event input. */
export const user = (text: string): SessionEventInput => ({
  type: 'user/message',
  data: { content: text, author: 'human' },
});
/** An assistant message event input. */
export const assistant = (text: string): SessionEventInput => ({
  type: 'assistant/message',
  data: { content: text },
});

/** Creates a persisted session whose first batch is `inputs` (a real `Session` writing through the persistence). */
export async function persistedSession(
  persistence: SessionPersistence,
  id: string,
  inputs: readonly SessionEventInput[],
  header: SessionHeader = searchTestHeader(id),
): Promise<Session> {
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
  if (inputs.length > 0) await session.append(inputs);
  return session;
}

/**
 * Creates a persisted fork of `parent` seeded with its events `[0, cut)` (default: all of them), as
 * the host's fork does (`planFork`: the prefix is copied into the fork's own log), then appends
 * `inputs` as the fork's own events.
 */
export async function forkedSession(
  persistence: SessionPersistence,
  id: string,
  parent: Session,
  inputs: readonly SessionEventInput[],
  options: { readonly cut?: number; readonly createdAt?: number } = {},
): Promise<Session> {
  const plan = planFork(
    parent.id,
    parent.events,
    options.cut ?? parent.events.length,
    searchTestHeader(id, options.createdAt ?? parent.header.createdAt + 1),
  );
  const { incarnation } = await persistence.create({ header: plan.header, inheritedEvents: plan.events });
  const session = new Session({
    header: plan.header,
    incarnation,
    writer: persistenceWriter(persistence, plan.header.id),
    events: plan.events,
    inheritedEventCount: plan.inheritedEventCount,
  });
  if (inputs.length > 0) await session.append(inputs);
  return session;
}
