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
  Session,
  SessionId,
  SessionStore,
  type SessionEventInput,
  type SessionHeader,
} from '@strand/session';
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

/** Every body read the index makes: `readFrom` calls (id, from) and the events they returned. */
export interface ReadCounter {
  readFromCalls: { id: string; from: number }[];
  eventsRead: number;
  lists: number;
  reset(): void;
}

export async function openTestCorpus(): Promise<TestCorpus> {
  const root = mkdtempSync(path.join(tmpdir(), 'strand-search-'));
  const persistence = await openJsonlPersistence({ root });
  const store = new SessionStore();
  const reads: ReadCounter = {
    readFromCalls: [],
    eventsRead: 0,
    lists: 0,
    reset() {
      this.readFromCalls = [];
      this.eventsRead = 0;
      this.lists = 0;
    },
  };
  return {
    persistence,
    store,
    reads,
    sources: { persistence: countingPersistence(persistence, reads), live: store },
    root,
    async dispose() {
      await persistence.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Wraps the two methods the index may use; any other body read would not compile against `SearchSources`. */
export function countingPersistence(
  persistence: SessionPersistence,
  reads: ReadCounter,
): SearchSources['persistence'] {
  return {
    list(options) {
      reads.lists++;
      return persistence.list(options);
    },
    async readFrom(id, from, options) {
      const suffix = await persistence.readFrom(id, from, options);
      reads.readFromCalls.push({ id, from });
      reads.eventsRead += suffix.events.length;
      return suffix;
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
