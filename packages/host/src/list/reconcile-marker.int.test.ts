import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  openSqlitePersistence,
  persistenceWriter,
  type ListChunksOptions,
  type SessionPersistence,
} from '@strand/persistence';
import { ProjectionRegistry } from '@strand/projection';
import { ProjectionCache } from '@strand/projection-cache';
import type { SessionQuery } from '@strand/query';
import { Session, SessionId, newSessionHeader, silentLogger } from '@strand/session';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reconcileListIndex, type ListReconcileDeps } from './reconcile.js';

let dir: string;
const opened: { close(): unknown }[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'strand-reconcile-marker-'));
});
afterEach(async () => {
  for (const store of opened.splice(0).reverse()) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A writer of the session database: this host's, or another process's on the same file. */
function writer(): SessionPersistence {
  const p = openSqlitePersistence({ path: path.join(dir, 'sessions.db') });
  opened.push(p);
  return p;
}

function listCache(): ProjectionCache {
  const cache = ProjectionCache.open({
    path: path.join(dir, 'cache.db'),
    registry: new ProjectionRegistry(),
  });
  opened.push(cache);
  return cache;
}

/** Stores `id` (created and appended to) without writing its list row: another tool, or a crash before the row. */
async function store(p: SessionPersistence, id: string): Promise<void> {
  const header = newSessionHeader({ id: SessionId(id), createdAt: 1_000 });
  const { incarnation } = await p.create({ header });
  await new Session({ header, incarnation, writer: persistenceWriter(p, header.id) }).append([
    { type: 'session/title', data: { title: id } },
  ]);
}

const noQuery: Pick<SessionQuery, 'observeSession'> = {
  observeSession: () => Promise.reject(new Error('reconcile reads no log')),
};

/**
 * Reconcile's view of `p`, counting the walks (`listChunks` calls); `during` runs after the walk's
 * first chunk was handed over (a writer acting while the host walks).
 */
function counted(p: SessionPersistence, during?: () => Promise<void>) {
  const walks = { count: 0 };
  const persistence: ListReconcileDeps['persistence'] = {
    changeMarker: () => p.changeMarker!(),
    async *listChunks(options: ListChunksOptions) {
      walks.count++;
      let first = true;
      for await (const chunk of p.listChunks(options)) {
        yield chunk;
        if (first && during !== undefined) await during();
        first = false;
      }
    },
  };
  return { persistence, walks };
}

const depsOf = (
  persistence: ListReconcileDeps['persistence'],
  cache: ProjectionCache,
): ListReconcileDeps => ({
  persistence,
  query: noQuery,
  cache,
  store: { has: () => false },
  logger: silentLogger,
});

const rowIds = async (cache: ProjectionCache): Promise<string[]> =>
  (await cache.listIndex!.identities({ after: '', limit: 100 })).map((row) => row.sessionId);

describe('reconcile and the change marker', () => {
  it('skips the walk over an unchanged corpus; a create by another writer makes the next open walk and list it', async () => {
    const host = writer();
    await store(host, 'a');
    await store(host, 'b');
    const { persistence, walks } = counted(host);
    let cache = listCache();
    expect(await reconcileListIndex(depsOf(persistence, cache))).toMatchObject({ walked: true, noted: 2 });
    expect(walks.count).toBe(1);

    // A restart with nothing changed: no walk.
    cache.close();
    cache = listCache();
    expect(await reconcileListIndex(depsOf(persistence, cache))).toMatchObject({ walked: false });
    expect(walks.count).toBe(1);

    // Another process stores a session on the same database while this host is down.
    await store(writer(), 'c');
    expect(await reconcileListIndex(depsOf(persistence, cache))).toMatchObject({ walked: true, noted: 1 });
    expect(walks.count).toBe(2);
    expect(await rowIds(cache)).toEqual(['a', 'b', 'c']);
    expect(await reconcileListIndex(depsOf(persistence, cache))).toMatchObject({ walked: false });
    expect(walks.count).toBe(2);
  });

  it('finds a session stored after the marker was recorded whose list row was never written (a crash between them)', async () => {
    const host = writer();
    await store(host, 'a');
    const { persistence } = counted(host);
    const cache = listCache();
    await reconcileListIndex(depsOf(persistence, cache));
    // The host stores a session and dies before `listingPersistence` writes its row.
    await store(host, 'crashed');
    expect(await rowIds(cache)).toEqual(['a']);
    expect(await reconcileListIndex(depsOf(persistence, cache))).toMatchObject({ walked: true, noted: 1 });
    expect(await rowIds(cache)).toEqual(['a', 'crashed']);
  });

  it('walks again at the next open after a session was stored during the walk, behind its cursor', async () => {
    const host = writer();
    await store(host, 'b');
    await store(host, 'c');
    const other = writer();
    // Stored once the walk has passed 'a': this walk cannot see it.
    const { persistence } = counted(host, () => store(other, 'a'));
    const cache = listCache();
    await reconcileListIndex(depsOf(persistence, cache), 1);
    expect(await rowIds(cache)).toEqual(['b', 'c']);
    // The marker recorded is the one read before the walk: this open walks, and lists it.
    const { persistence: plain } = counted(host);
    expect(await reconcileListIndex(depsOf(plain, cache), 1)).toMatchObject({ walked: true, noted: 1 });
    expect(await rowIds(cache)).toEqual(['a', 'b', 'c']);
  });

  it('records nothing when the walk fails, so the next open walks', async () => {
    const host = writer();
    await store(host, 'a');
    await store(host, 'b');
    const failing = counted(host, () => Promise.reject(new Error('the disk went away mid-walk')));
    const cache = listCache();
    await expect(reconcileListIndex(depsOf(failing.persistence, cache), 1)).rejects.toThrow(/mid-walk/);
    expect(await cache.listIndex!.reconciledMarker!()).toBeUndefined();
    const { persistence, walks } = counted(host);
    expect(await reconcileListIndex(depsOf(persistence, cache), 1)).toMatchObject({ walked: true });
    expect(walks.count).toBe(1);
    expect(await rowIds(cache)).toEqual(['a', 'b']);
  });

  it('walks at every open when persistence cannot tell (no marker)', async () => {
    const host = writer();
    await store(host, 'a');
    const { persistence, walks } = counted(host);
    const blind: ListReconcileDeps['persistence'] = {
      listChunks: (options) => persistence.listChunks(options),
    };
    const cache = listCache();
    for (let open = 0; open < 3; open++)
      expect(await reconcileListIndex(depsOf(blind, cache))).toMatchObject({ walked: true });
    expect(walks.count).toBe(3);
  });
});
