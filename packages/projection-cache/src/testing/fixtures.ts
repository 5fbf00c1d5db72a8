import Database from 'better-sqlite3';
import { BUILT_IN_UNITS, ProjectionRegistry, type ProjectionUnit } from '@strand/projection';
import { SessionId, type SessionHeader } from '@strand/session';
import { ProjectionCache } from '../cache.js';
import type { CacheLogger } from '../logger.js';
import type { CacheSubject } from '../subject.js';

export function header(id = 's1'): SessionHeader {
  return { version: 1, id: SessionId(id), createdAt: 0, isSeeded: false };
}

export const subject = (id = 's1', incarnation = 'inc-1'): CacheSubject => ({
  header: header(id),
  incarnation,
});

/** A logger that records what the cache contained. */
export function recordingLogger(): CacheLogger & {
  readonly entries: { message: string; fields: Readonly<Record<string, unknown>> }[];
} {
  const entries: { message: string; fields: Readonly<Record<string, unknown>> }[] = [];
  return { entries, warn: (message, fields) => entries.push({ message, fields }) };
}

/** A unit whose view throws on a state a healthy fold never produces: stands in for a poisoned row. */
export const strictCounter: ProjectionUnit<{ n: number }, number, 'test/strict'> = {
  key: 'test/strict',
  stateVersion: 1,
  init: () => ({ n: 0 }),
  apply: (state, event) => (event.type === 'turn/start' ? { n: state.n + 1 } : state),
  view: (state) => {
    if (typeof state.n !== 'number') throw new TypeError('poisoned state');
    return state.n;
  },
};

export function memoryCache(logger: CacheLogger = recordingLogger()): {
  cache: ProjectionCache;
  db: Database.Database;
  registry: ProjectionRegistry;
} {
  const registry = new ProjectionRegistry({ units: [...BUILT_IN_UNITS, strictCounter] });
  const db = new Database(':memory:');
  return { cache: new ProjectionCache(db, registry, { logger }), db, registry };
}
