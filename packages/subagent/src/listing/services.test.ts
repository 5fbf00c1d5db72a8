import { ProjectionRegistry, BUILT_IN_UNITS } from '@strand/projection';
import { SessionId, SessionStore } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { registerSubagentUnits } from '../projection/register.js';
import { listChildren } from './list-children.js';
import type { ListingQuery, SubagentListingContext } from './types.js';

const untouchable: ListingQuery = {
  listSessions: () => Promise.reject(new Error('must not be called')),
  observeSession: () => Promise.reject(new Error('must not be called')),
};
function ctx(): SubagentListingContext {
  const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
  registerSubagentUnits(registry);
  return { sessionProjections: registry, sessions: new SessionStore(), sessionQuery: untouchable };
}

describe('required services (in-memory)', () => {
  it('are checked before anything is read, in the order projections, store, query', async () => {
    await expect(listChildren({}, SessionId('p'))).rejects.toMatchObject({
      code: 'SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE',
    });
    await expect(
      listChildren({ ...ctx(), sessions: undefined, sessionQuery: undefined }, SessionId('p')),
    ).rejects.toMatchObject({
      code: 'SUBAGENT_CONTROL_SESSION_STORE_UNAVAILABLE',
    });
    await expect(listChildren({ ...ctx(), sessionQuery: undefined }, SessionId('p'))).rejects.toMatchObject({
      code: 'SUBAGENT_CONTROL_QUERY_UNAVAILABLE',
    });
  });

  it('a registry without the subagent unit cannot classify: PROJECTIONS_UNAVAILABLE, not an empty or all-corrupt list', async () => {
    await expect(
      listChildren(
        { ...ctx(), sessionProjections: new ProjectionRegistry({ units: BUILT_IN_UNITS }) },
        SessionId('p'),
      ),
    ).rejects.toMatchObject({
      code: 'SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE',
    });
  });

  it('a missing cache is no error', async () => {
    const empty: ListingQuery = { ...untouchable, listSessions: () => Promise.resolve([]) };
    expect(
      await listChildren(
        { ...ctx(), sessionQuery: empty, sessionProjectionCache: undefined },
        SessionId('p'),
      ),
    ).toEqual([]);
  });
});
